package dev.backplane.kernel.topology;

import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.catalog.CatalogViews;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.targets.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Discovery of a Keycloak target through the tenant's ingested admin-API connector (the read operations
 * of {@code examples/keycloak}: list_realms, get_clients_by_realm, get_groups_by_realm,
 * get_group_members), each a governed call through the dispatch pipeline: realms belong-to the target,
 * clients authenticate-via their realm, groups belong-to their realm, users belong-to their groups
 * (a realm beyond a cap — {@value #MAX_GROUPS} groups, {@value #MAX_MEMBERS} members a group — is refused with
 * {@code refresh_failed} rather than read in part).
 * Names carry the target's and the realm's name ({@code <target>/<realm>/<client id>}).
 */
final class KeycloakDiscovery extends Discovery {

    static final int MAX_GROUPS = 200;
    static final int MAX_MEMBERS = 1000;

    private final CatalogService catalog;

    KeycloakDiscovery(DiscoveryCalls calls, CatalogService catalog) {
        super("keycloak", calls);
        this.catalog = catalog;
    }

    @Override
    List<Seen> observe(Caller system, Target target) {
        CatalogViews.ConnectorSummary connector = connector(system, target);
        String ops = connector.implId().orElse(product());
        String c = connector.connectorId();
        String t = target.name();
        List<Seen> out = new ArrayList<>();
        Seen.Node cluster = new Seen.Node(Vocabulary.TARGET, t);
        for (Map<?, ?> r : calls.rows(system, calls.call(system, c, t, ops + ".realms.list_realms",
                Map.of("briefRepresentation", true)))) {
            if (!(r.get("realm") instanceof String realmName)) {
                continue;
            }
            Seen.Node realm = new Seen.Node("realm", t + "/" + realmName);
            out.add(new Seen(realm, "belongs-to", cluster));
            for (Map<?, ?> client : calls.rows(system, calls.call(system, c, t, ops + ".clients.get_clients_by_realm",
                    Map.of("realm", realmName)))) {
                if (client.get("clientId") instanceof String id) {
                    out.add(new Seen(new Seen.Node("client", t + "/" + realmName + "/" + id), "authenticates-via", realm));
                }
            }
            List<Map<?, ?>> groups = calls.rows(system, calls.call(system, c, t, ops + ".groups.get_groups_by_realm",
                    Map.of("realm", realmName)));
            if (groups.size() > MAX_GROUPS) {
                throw DiscoveryCalls.capHit(t, "MAX_GROUPS", MAX_GROUPS, groups.size() + " groups in realm " + realmName);
            }
            for (Map<?, ?> g : groups) {
                if (!(g.get("id") instanceof String groupId) || !(g.get("name") instanceof String name)) {
                    continue;
                }
                Seen.Node group = new Seen.Node("group", t + "/" + realmName + "/" + name);
                out.add(new Seen(group, "belongs-to", realm));
                // one more than the cap is asked for: a full page would not say whether more members exist
                List<Map<?, ?>> members = calls.rows(system, calls.call(system, c, t, ops + ".groups.get_group_members",
                        Map.of("realm", realmName, "group_id", groupId, "max", MAX_MEMBERS + 1)));
                if (members.size() > MAX_MEMBERS) {
                    throw DiscoveryCalls.capHit(t, "MAX_MEMBERS", MAX_MEMBERS, "the members of group " + name
                            + " in realm " + realmName);
                }
                for (Map<?, ?> u : members) {
                    if (u.get("username") instanceof String user) {
                        out.add(new Seen(new Seen.Node("user", t + "/" + realmName + "/" + user), "belongs-to", group));
                    }
                }
            }
        }
        return out;
    }

    /** The tenant's connector for the target's product: an enabled one first. */
    private CatalogViews.ConnectorSummary connector(Caller system, Target target) {
        List<CatalogViews.ConnectorSummary> serving = catalog.list(system.tenantId(), Optional.empty()).stream()
                .filter(s -> s.products().contains(target.product())).toList();
        return serving.stream().filter(s -> s.status().equals("enabled")).findFirst()
                .or(() -> serving.stream().findFirst())
                .orElseThrow(() -> TopologyErrors.REFRESH_FAILED.error("no connector serves product " + target.product()
                        + " for this tenant (ingest the Keycloak admin API: svc connector ingest --product keycloak ...)",
                        Map.of("target", target.name(), "product", target.product())));
    }
}
