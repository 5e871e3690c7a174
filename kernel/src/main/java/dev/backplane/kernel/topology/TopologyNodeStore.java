package dev.backplane.kernel.topology;

import static dev.backplane.kernel.topology.TopologyStore.array;
import static dev.backplane.kernel.topology.TopologyStore.ts;

import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The SQL of the topology nodes on a write's connection: the nodes of some names, the targets some names
 * or aliases name, and creating the nodes that do not exist yet, all in one statement per set of names.
 */
final class TopologyNodeStore {

    private TopologyNodeStore() {
    }

    static TenantGraph.NodeRef node(ResultSet rs) throws SQLException {
        return new TenantGraph.NodeRef(rs.getObject("id", UUID.class), rs.getString("kind"), rs.getString("name"));
    }

    static List<TenantGraph.NodeRef> nodesNamed(Connection c, UUID tenant, Collection<String> names) throws SQLException {
        return Jdbc.query(c, "SELECT id, kind, name FROM topology_nodes WHERE tenant_id = ? AND name = ANY(?)",
                TopologyNodeStore::node, tenant, array(c, "text", names));
    }

    /** The canonical name of the target each of these names or aliases names (names naming none are absent). */
    static Map<String, String> targetNames(Connection c, UUID tenant, Collection<String> namesOrAliases)
            throws SQLException {
        Map<String, String> out = new HashMap<>();
        if (namesOrAliases.isEmpty()) {
            return out;
        }
        Jdbc.query(c, """
                SELECT k.n, t.name FROM unnest(?::text[]) AS k(n)
                JOIN targets_targets t ON t.tenant_id = ? AND (t.name = k.n OR t.id = (SELECT a.target_id
                     FROM targets_aliases a WHERE a.tenant_id = ? AND a.alias = k.n))""",
                rs -> out.put(rs.getString(1), rs.getString(2)), array(c, "text", namesOrAliases), tenant, tenant);
        return out;
    }

    /** Inserts the nodes that do not exist yet (kind, name pairs) and answers every one of them with its id. */
    static List<TenantGraph.NodeRef> ensureNodes(Connection c, UUID tenant, List<String> kinds, List<String> names,
                                                  String actor, Instant at) throws SQLException {
        List<UUID> ids = new ArrayList<>(kinds.size());
        for (int i = 0; i < kinds.size(); i++) {
            ids.add(UUID.randomUUID());
        }
        Jdbc.update(c, """
                INSERT INTO topology_nodes (id, tenant_id, kind, name, created_by, created_at)
                SELECT n.id, ?, n.kind, n.name, ?, ? FROM unnest(?::uuid[], ?::text[], ?::text[]) AS n(id, kind, name)
                ON CONFLICT (tenant_id, kind, name) DO NOTHING""", tenant, actor, ts(at), array(c, "uuid", ids),
                array(c, "text", kinds), array(c, "text", names));
        return Jdbc.query(c, """
                SELECT n.id, n.kind, n.name FROM topology_nodes n
                JOIN unnest(?::text[], ?::text[]) AS k(kind, name) ON n.kind = k.kind AND n.name = k.name
                WHERE n.tenant_id = ?""", TopologyNodeStore::node, array(c, "text", kinds), array(c, "text", names), tenant);
    }
}
