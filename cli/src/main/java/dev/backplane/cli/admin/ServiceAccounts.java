package dev.backplane.cli.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.cli.common.Http;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The confidential clients with a service account that {@code bootstrap-clients} can add beside the
 * public CLI and MCP clients: a reader (the credential of a backplane target for this Keycloak, with
 * realm-management view roles in its realm only) and a setup client (a tenant_admin of one tenant on
 * the backplane, for scripted setup such as {@code ./run}'s). Same reconcile rules as
 * {@link KeycloakBootstrap}: read, change only what differs, record every change. It works through the
 * admin client and the bootstrap's own change log and client reconcile.
 */
record ServiceAccounts(KeycloakAdmin kc, Changes changes, Clients clients) {

    /** What the reader's service account may do in the realm: read it, its users, groups and clients. */
    static final List<String> READER_ROLES = List.of("view-realm", "view-users", "view-clients", "query-groups");

    /** Records a change and runs it unless this is a dry run. */
    interface Changes {
        void change(String description, Runnable action);
    }

    /** Creates a client or brings it to the desired fields; returns its id (empty when only planned). */
    interface Clients {
        Optional<String> ensure(String realmPath, boolean live, String clientId, ObjectNode desired);
    }

    /** Ensures the client and its secret; returns the client's id when it exists. */
    Optional<String> ensureClient(String r, boolean live, BootstrapSpec.ServiceClient c, String name) {
        ObjectNode desired = Http.JSON.valueToTree(Map.of("clientId", c.clientId(), "name", name,
                "protocol", "openid-connect", "publicClient", false, "clientAuthenticatorType", "client-secret",
                "standardFlowEnabled", false, "implicitFlowEnabled", false, "directAccessGrantsEnabled", false,
                "serviceAccountsEnabled", true));
        Optional<String> id = clients.ensure(r, live, c.clientId(), desired);
        if (id.isEmpty()) {
            changes.change("set the secret of client " + c.clientId(), () -> { });
            return id;
        }
        String path = r + "/clients/" + id.get();
        String current = kc.get(path + "/client-secret").map(s -> s.path("value").asText("")).orElse("");
        if (!current.equals(c.secret())) {
            ObjectNode rep = (ObjectNode) kc.get(path).orElseThrow();
            rep.put("secret", c.secret());
            changes.change("set the secret of client " + c.clientId(), () -> kc.put(path, rep));
        }
        return id;
    }

    /** Gives the client's service account these roles of the realm's {@code realm-management} client. */
    void ensureRealmManagementRoles(String r, Optional<String> clientUuid, String clientId, List<String> roles) {
        String what = "give the service account of client " + clientId + " realm-management roles ";
        if (clientUuid.isEmpty()) {
            changes.change(what + roles, () -> { });
            return;
        }
        String userId = serviceAccountUser(r, clientUuid.get()).path("id").asText();
        String rm = kc.get(r + "/clients?clientId=realm-management").orElseThrow().path(0).path("id").asText();
        Set<String> have = new HashSet<>();
        kc.get(r + "/users/" + userId + "/role-mappings/clients/" + rm).orElseThrow()
                .forEach(role -> have.add(role.path("name").asText()));
        ArrayNode missing = Http.JSON.createArrayNode();
        List<String> names = new ArrayList<>();
        for (String role : roles) {
            if (!have.contains(role)) {
                missing.add(kc.get(r + "/clients/" + rm + "/roles/" + KeycloakAdmin.q(role)).orElseThrow());
                names.add(role);
            }
        }
        if (!missing.isEmpty()) {
            changes.change(what + names, () -> kc.post(r + "/users/" + userId + "/role-mappings/clients/" + rm, missing));
        }
    }

    /** Puts the client's service account in {@code tenantId} with {@code role}, as the tenant claims read them. */
    void ensureTenantAttributes(String r, Optional<String> clientUuid, String clientId, String tenantId, String role) {
        String what = "put the service account of client " + clientId + " in tenant " + tenantId + " as " + role;
        if (clientUuid.isEmpty()) {
            changes.change(what, () -> { });
            return;
        }
        String userId = serviceAccountUser(r, clientUuid.get()).path("id").asText();
        ObjectNode user = (ObjectNode) kc.get(r + "/users/" + userId).orElseThrow();
        ObjectNode attrs = user.withObjectProperty("attributes");
        if (tenantId.equals(attrs.path("tenant_id").path(0).asText()) && role.equals(attrs.path("tenant_role").path(0)
                .asText())) {
            return;
        }
        attrs.putArray("tenant_id").add(tenantId);
        attrs.putArray("tenant_role").add(role);
        changes.change(what, () -> kc.put(r + "/users/" + userId, user));
    }

    private JsonNode serviceAccountUser(String r, String clientUuid) {
        return kc.get(r + "/clients/" + clientUuid + "/service-account-user").orElseThrow();
    }
}
