package dev.backplane.cli.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.cli.common.Http;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Reconciles a realm toward a {@link BootstrapSpec}: reads what exists, changes only what differs,
 * and records every change. With {@code dryRun} it reads but never writes. Running it twice in a
 * row makes no change the second time.
 */
final class KeycloakBootstrap {

    static final List<String> TENANT_ATTRIBUTES = List.of("tenant_id", "tenant_role", "platform_admin");
    /** The backplane needs none of these; left required, Keycloak would stop logins at a profile form. */
    static final List<String> OPTIONAL_PROFILE_ATTRIBUTES = List.of("email", "firstName", "lastName");

    /** The outcome: changes made (or planned) and any generated password to hand over. */
    record Outcome(List<String> changes, Optional<String> generatedPassword, Optional<String> tenantId) {
        @Override
        public String toString() {
            return "Outcome[changes=" + changes + ", tenantId=" + tenantId + "]";
        }
    }

    private final KeycloakAdmin kc;
    private final BootstrapSpec spec;
    private final boolean dryRun;
    private final List<String> changes = new ArrayList<>();
    private Optional<String> generatedPassword = Optional.empty();
    private Optional<String> tenantId = Optional.empty();

    KeycloakBootstrap(KeycloakAdmin kc, BootstrapSpec spec, boolean dryRun) {
        this.kc = kc;
        this.spec = spec;
        this.dryRun = dryRun;
    }

    Outcome run() {
        String r = "/" + KeycloakAdmin.q(spec.realm());
        boolean realmExists = kc.get(r).isPresent();
        if (!realmExists) {
            change("create realm " + spec.realm(), () -> kc.post("", obj(Map.of("realm", spec.realm(), "enabled", true))));
        }
        boolean live = realmExists || !dryRun; // false: realm only planned, nothing inside can be read
        ensureUserProfile(r, live);
        Optional<String> offlineScope = live ? findClientScope(r, "offline_access") : Optional.empty();

        Optional<String> cli = ensureClient(r, live, spec.cliClientId(), cliClient());
        ensureMappers(r, cli, spec.cliClientId(), spec.backplaneAudience());
        ensureOfflineScope(r, cli, offlineScope);

        Optional<String> mcp = ensureClient(r, live, spec.mcpClientId(), mcpClient());
        ensureMappers(r, mcp, spec.mcpClientId(), spec.mcpResourceUri());
        ensureMcpScope(r, live, mcp);

        Optional<String> console = ensureClient(r, live, spec.consoleClientId(), consoleClient());
        ensureMappers(r, console, spec.consoleClientId(), spec.backplaneAudience());

        spec.user().ifPresent(u -> ensureUser(r, live, u));
        ensureServiceAccounts(r, live);
        return new Outcome(List.copyOf(changes), generatedPassword, tenantId);
    }

    private void ensureServiceAccounts(String r, boolean live) {
        ServiceAccounts accounts = new ServiceAccounts(kc, this::change, this::ensureClient);
        spec.readerClient().ifPresent(c -> {
            Optional<String> id = accounts.ensureClient(r, live, c, "svc backplane target credential (admin API reads)");
            accounts.ensureRealmManagementRoles(r, id, c.clientId(), ServiceAccounts.READER_ROLES);
        });
        spec.setupClient().ifPresent(c -> {
            Optional<String> id = accounts.ensureClient(r, live, c, "svc scripted setup (tenant_admin)");
            accounts.ensureTenantAttributes(r, id, c.clientId(), spec.setupTenantId().orElseThrow(), "tenant_admin");
            ensureMappers(r, id, c.clientId(), spec.backplaneAudience());
        });
    }

    private void ensureUserProfile(String r, boolean live) {
        if (!live) {
            change("declare user attributes " + TENANT_ATTRIBUTES + " and make " + OPTIONAL_PROFILE_ATTRIBUTES
                    + " optional in the user profile", () -> { });
            return;
        }
        ObjectNode profile = (ObjectNode) kc.get(r + "/users/profile").orElseThrow();
        ArrayNode attributes = profile.withArray("attributes");
        List<String> missing = new ArrayList<>(TENANT_ATTRIBUTES);
        attributes.forEach(a -> missing.remove(a.path("name").asText()));
        List<String> relaxed = new ArrayList<>();
        attributes.forEach(a -> {
            if (OPTIONAL_PROFILE_ATTRIBUTES.contains(a.path("name").asText()) && a.has("required")) {
                ((ObjectNode) a).remove("required");
                relaxed.add(a.path("name").asText());
            }
        });
        if (missing.isEmpty() && relaxed.isEmpty()) {
            return;
        }
        for (String name : missing) {
            ObjectNode a = attributes.addObject();
            a.put("name", name);
            a.put("displayName", name);
            ObjectNode perms = a.putObject("permissions");
            perms.putArray("view").add("admin");
            perms.putArray("edit").add("admin");
            a.put("multivalued", false);
        }
        String what = (missing.isEmpty() ? "" : "declare user attributes " + missing)
                + (missing.isEmpty() || relaxed.isEmpty() ? "" : " and ")
                + (relaxed.isEmpty() ? "" : "make " + relaxed + " optional")
                + " in the user profile";
        change(what, () -> kc.put(r + "/users/profile", profile));
    }

    private Optional<String> findClientScope(String r, String name) {
        for (JsonNode s : kc.get(r + "/client-scopes").orElseThrow()) {
            if (name.equals(s.path("name").asText())) {
                return Optional.of(s.path("id").asText());
            }
        }
        return Optional.empty();
    }

    private ObjectNode cliClient() {
        ObjectNode c = obj(Map.of("clientId", spec.cliClientId(), "name", "svc CLI", "protocol", "openid-connect",
                "publicClient", true, "standardFlowEnabled", false, "implicitFlowEnabled", false,
                "directAccessGrantsEnabled", false, "serviceAccountsEnabled", false));
        ObjectNode attrs = c.putObject("attributes");
        attrs.put("oauth2.device.authorization.grant.enabled", "true");
        spec.cliOfflineIdleSeconds().ifPresent(s -> attrs.put("client.offline.session.idle.timeout", String.valueOf(s)));
        return c;
    }

    private ObjectNode mcpClient() {
        ObjectNode c = obj(Map.of("clientId", spec.mcpClientId(), "name", "svc MCP clients", "protocol", "openid-connect",
                "publicClient", true, "standardFlowEnabled", true, "implicitFlowEnabled", false,
                "directAccessGrantsEnabled", false, "serviceAccountsEnabled", false));
        c.putArray("redirectUris").add(spec.mcpRedirectUri());
        c.putArray("webOrigins").add(spec.mcpWebOrigin());
        // browser flow with PKCE for MCP clients that do OAuth themselves; the device flow so that
        // `svc login --client-id svc-mcp` can mint an agent-session token for clients that take a bearer header
        c.putObject("attributes").put("pkce.code.challenge.method", "S256")
                .put("oauth2.device.authorization.grant.enabled", "true");
        return c;
    }

    /** The console: a public client, authorization code with PKCE (S256), back to {@code <url>/ui/callback} only. */
    private ObjectNode consoleClient() {
        ObjectNode c = obj(Map.of("clientId", spec.consoleClientId(), "name", "svc console", "protocol", "openid-connect",
                "publicClient", true, "standardFlowEnabled", true, "implicitFlowEnabled", false,
                "directAccessGrantsEnabled", false, "serviceAccountsEnabled", false));
        c.putArray("redirectUris").add(spec.consoleUrl() + "/ui/callback");
        c.putArray("webOrigins").add(spec.consoleUrl());
        c.putObject("attributes").put("pkce.code.challenge.method", "S256");
        return c;
    }

    /** Creates the client or brings the fields named in {@code desired} to their desired values; returns its id. */
    private Optional<String> ensureClient(String r, boolean live, String clientId, ObjectNode desired) {
        if (!live) {
            change("create client " + clientId, () -> { });
            return Optional.empty();
        }
        JsonNode found = kc.get(r + "/clients?clientId=" + KeycloakAdmin.q(clientId)).orElseThrow();
        if (found.isEmpty()) {
            change("create client " + clientId, () -> kc.post(r + "/clients", desired));
            return dryRun ? Optional.empty() : Optional.of(kc.get(r + "/clients?clientId=" + KeycloakAdmin.q(clientId))
                    .orElseThrow().get(0).path("id").asText());
        }
        ObjectNode current = (ObjectNode) found.get(0);
        String id = current.path("id").asText();
        List<String> differing = new ArrayList<>();
        desired.properties().forEach(e -> {
            if (e.getKey().equals("attributes")) {
                ObjectNode attrs = current.withObjectProperty("attributes");
                e.getValue().properties().forEach(a -> {
                    if (!a.getValue().equals(attrs.get(a.getKey()))) {
                        differing.add(a.getKey());
                        attrs.set(a.getKey(), a.getValue());
                    }
                });
            } else if (!e.getValue().equals(current.get(e.getKey()))) {
                differing.add(e.getKey());
                current.set(e.getKey(), e.getValue());
            }
        });
        if (!differing.isEmpty()) {
            change("update client " + clientId + " (" + String.join(", ", differing) + ")",
                    () -> kc.put(r + "/clients/" + id, current));
        }
        return Optional.of(id);
    }

    private void ensureMappers(String r, Optional<String> clientUuid, String clientId, String audience) {
        Map<String, ObjectNode> desired = new LinkedHashMap<>();
        desired.put("tenant_id", attributeMapper("tenant_id", "String"));
        desired.put("tenant_role", attributeMapper("tenant_role", "String"));
        desired.put("platform_admin", attributeMapper("platform_admin", "boolean"));
        ObjectNode aud = obj(Map.of("name", "audience", "protocol", "openid-connect",
                "protocolMapper", "oidc-audience-mapper"));
        aud.set("config", obj(Map.of("included.custom.audience", audience, "access.token.claim", "true",
                "id.token.claim", "false", "introspection.token.claim", "true")));
        desired.put("audience", aud);
        if (clientUuid.isEmpty()) {
            desired.keySet().forEach(n -> change("create mapper " + n + " on client " + clientId, () -> { }));
            return;
        }
        String path = r + "/clients/" + clientUuid.get() + "/protocol-mappers/models";
        Map<String, JsonNode> existing = new LinkedHashMap<>();
        kc.get(path).orElseThrow().forEach(m -> existing.put(m.path("name").asText(), m));
        desired.forEach((name, mapper) -> {
            JsonNode have = existing.get(name);
            if (have == null) {
                change("create mapper " + name + " on client " + clientId, () -> kc.post(path, mapper));
            } else if (!have.path("protocolMapper").equals(mapper.path("protocolMapper"))
                    || !containsAll(have.path("config"), mapper.path("config"))) {
                ObjectNode updated = mapper.deepCopy();
                updated.put("id", have.path("id").asText());
                change("update mapper " + name + " on client " + clientId,
                        () -> kc.put(path + "/" + have.path("id").asText(), updated));
            }
        });
    }

    /** The scope the backplane's /mcp requires: a client scope in every MCP-client token's scope claim. */
    static final String MCP_SCOPE = "svc:mcp";

    private void ensureMcpScope(String r, boolean live, Optional<String> mcpUuid) {
        Optional<String> scope = live ? findClientScope(r, MCP_SCOPE) : Optional.empty();
        if (scope.isEmpty()) {
            ObjectNode s = obj(Map.of("name", MCP_SCOPE, "protocol", "openid-connect",
                    "description", "act through the svc backplane's MCP tools"));
            s.set("attributes", obj(Map.of("include.in.token.scope", "true", "display.on.consent.screen", "true",
                    "consent.screen.text", "Act on infrastructure through the svc backplane")));
            change("create client scope " + MCP_SCOPE, () -> kc.post(r + "/client-scopes", s));
            scope = live ? findClientScope(r, MCP_SCOPE) : Optional.empty();
        }
        if (mcpUuid.isEmpty() || scope.isEmpty()) { // dry run: nothing exists to attach yet
            change("add default scope " + MCP_SCOPE + " to client " + spec.mcpClientId(), () -> { });
            return;
        }
        String path = r + "/clients/" + mcpUuid.get() + "/default-client-scopes";
        String id = scope.get();
        boolean attached = false;
        for (JsonNode have : kc.get(path).orElseThrow()) {
            attached |= id.equals(have.path("id").asText());
        }
        if (!attached) {
            change("add default scope " + MCP_SCOPE + " to client " + spec.mcpClientId(),
                    () -> kc.put(path + "/" + id, null));
        }
    }

    private void ensureOfflineScope(String r, Optional<String> cliUuid, Optional<String> offlineScope) {
        boolean wanted = spec.cliOfflineIdleSeconds().isPresent();
        if (cliUuid.isEmpty() || offlineScope.isEmpty()) {
            if (wanted) {
                change("allow offline_access on client " + spec.cliClientId(), () -> { });
            }
            return;
        }
        String path = r + "/clients/" + cliUuid.get() + "/optional-client-scopes";
        boolean attached = false;
        for (JsonNode s : kc.get(path).orElseThrow()) {
            attached |= offlineScope.get().equals(s.path("id").asText());
        }
        if (wanted && !attached) {
            change("allow offline_access on client " + spec.cliClientId(), () -> kc.put(path + "/" + offlineScope.get(), null));
        } else if (!wanted && attached) {
            change("remove offline_access from client " + spec.cliClientId()
                    + " (not requested: pass --cli-offline-access to allow it)",
                    () -> kc.delete(path + "/" + offlineScope.get()));
        }
    }

    private void ensureUser(String r, boolean live, BootstrapSpec.UserSpec u) {
        JsonNode found = live ? kc.get(r + "/users?exact=true&username=" + KeycloakAdmin.q(u.username())).orElseThrow()
                : Http.JSON.createArrayNode();
        if (found.isEmpty()) {
            String tenant = u.tenantId().orElseGet(() -> UUID.randomUUID().toString());
            tenantId = Optional.of(tenant);
            String role = u.tenantRole().orElse("tenant_admin");
            String password = u.password().orElseGet(() -> {
                String p = randomPassword();
                generatedPassword = Optional.of(p);
                return p;
            });
            ObjectNode user = obj(Map.of("username", u.username(), "enabled", true, "emailVerified", true));
            u.email().ifPresent(e -> user.put("email", e));
            ObjectNode attrs = user.putObject("attributes");
            attrs.putArray("tenant_id").add(tenant);
            attrs.putArray("tenant_role").add(role);
            ObjectNode cred = user.putArray("credentials").addObject();
            cred.put("type", "password");
            cred.put("value", password);
            cred.put("temporary", false);
            change("create user " + u.username() + " (tenant " + tenant + ", role " + role + ")",
                    () -> kc.post(r + "/users", user));
        } else {
            ObjectNode user = (ObjectNode) found.get(0);
            String id = user.path("id").asText();
            ObjectNode full = (ObjectNode) kc.get(r + "/users/" + id).orElseThrow();
            ObjectNode attrs = full.withObjectProperty("attributes");
            List<String> differing = new ArrayList<>();
            String currentTenant = attrs.path("tenant_id").path(0).asText("");
            String tenant = u.tenantId().orElse(currentTenant.isEmpty() ? UUID.randomUUID().toString() : currentTenant);
            tenantId = Optional.of(tenant);
            if (!tenant.equals(currentTenant)) {
                differing.add("tenant_id");
                attrs.putArray("tenant_id").add(tenant);
            }
            String currentRole = attrs.path("tenant_role").path(0).asText("");
            String role = u.tenantRole().orElse(currentRole.isEmpty() ? "tenant_admin" : currentRole);
            if (!role.equals(currentRole)) {
                differing.add("tenant_role");
                attrs.putArray("tenant_role").add(role);
            }
            if (u.email().isPresent() && !u.email().get().equals(full.path("email").asText(""))) {
                differing.add("email");
                full.put("email", u.email().get());
            }
            if (!differing.isEmpty()) {
                change("update user " + u.username() + " (" + String.join(", ", differing) + ")",
                        () -> kc.put(r + "/users/" + id, full));
            }
        }
        u.groupName().ifPresent(g -> ensureGroup(r, live, u.username(), g));
    }

    private void ensureGroup(String r, boolean live, String username, String group) {
        Optional<String> groupId = Optional.empty();
        if (live) {
            for (JsonNode g : kc.get(r + "/groups?exact=true&search=" + KeycloakAdmin.q(group)).orElseThrow()) {
                if (group.equals(g.path("name").asText())) {
                    groupId = Optional.of(g.path("id").asText());
                }
            }
        }
        if (groupId.isEmpty()) {
            change("create group " + group, () -> kc.post(r + "/groups", obj(Map.of("name", group))));
            if (dryRun) {
                change("add user " + username + " to group " + group, () -> { });
                return;
            }
            groupId = kc.get(r + "/groups?exact=true&search=" + KeycloakAdmin.q(group)).orElseThrow()
                    .findValuesAsText("id").stream().findFirst();
        }
        Optional<String> userId = dryRun && !live ? Optional.empty()
                : kc.get(r + "/users?exact=true&username=" + KeycloakAdmin.q(username)).orElseThrow()
                .findValuesAsText("id").stream().findFirst();
        if (userId.isEmpty() || groupId.isEmpty()) {
            change("add user " + username + " to group " + group, () -> { });
            return;
        }
        String gid = groupId.get();
        boolean member = false;
        for (JsonNode g : kc.get(r + "/users/" + userId.get() + "/groups").orElseThrow()) {
            member |= gid.equals(g.path("id").asText());
        }
        if (!member) {
            String uid = userId.get();
            change("add user " + username + " to group " + group, () -> kc.put(r + "/users/" + uid + "/groups/" + gid, null));
        }
    }

    private ObjectNode attributeMapper(String attribute, String jsonType) {
        ObjectNode m = obj(Map.of("name", attribute, "protocol", "openid-connect",
                "protocolMapper", "oidc-usermodel-attribute-mapper"));
        m.set("config", obj(Map.of("user.attribute", attribute, "claim.name", attribute, "jsonType.label", jsonType,
                "access.token.claim", "true", "id.token.claim", "true", "userinfo.token.claim", "true",
                "introspection.token.claim", "true", "multivalued", "false")));
        return m;
    }

    private void change(String description, Runnable action) {
        changes.add(description);
        if (!dryRun) {
            action.run();
        }
    }

    private static boolean containsAll(JsonNode have, JsonNode want) {
        var it = want.properties().iterator();
        while (it.hasNext()) {
            var e = it.next();
            if (!e.getValue().equals(have.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    private static ObjectNode obj(Map<String, ?> fields) {
        return Http.JSON.valueToTree(fields);
    }

    private static String randomPassword() {
        byte[] b = new byte[15];
        new SecureRandom().nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}
