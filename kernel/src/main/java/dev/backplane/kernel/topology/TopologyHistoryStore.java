package dev.backplane.kernel.topology;

import static dev.backplane.kernel.topology.TopologyEdgeStore.EDGE_COLUMNS;
import static dev.backplane.kernel.topology.TopologyStore.ts;

import dev.backplane.kernel.persistence.FilteredSelect;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.targets.Target;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The SQL of the topology's reads of past and present versions: the filtered current edge list, the
 * versions a diff compares, a node's records and edge versions for its history, and the tenant's timeline.
 * Nothing here writes; every statement is scoped by tenant.
 */
final class TopologyHistoryStore {

    /** A node's own record for its history: when and by whom it was created. */
    record NodeCreated(TenantGraph.NodeRef node, String createdBy, Instant at) {
    }

    private static final String VALID_BETWEEN = " WHERE e.tenant_id = ? AND e.valid_from <= ? "
            + "AND (e.valid_to IS NULL OR e.valid_to > ?)";

    private final Jdbc jdbc;

    TopologyHistoryStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** Current edges, filtered by conflict flag, canonical end names, kind and source, in list order. */
    List<EdgeRow> current(UUID tenant, boolean conflicts, Optional<String> from, Optional<String> to,
                          Optional<String> kind, Optional<String> source, int limit, int offset) {
        return new FilteredSelect("SELECT " + EDGE_COLUMNS + " WHERE e.tenant_id = ? AND e.valid_to IS NULL", tenant)
                .andIf(conflicts, "e.conflict")
                .and("f.name = ?", from)
                .and("t.name = ?", to)
                .and("e.kind = ?", kind)
                .and("e.source = ?", source)
                .append(" ORDER BY f.name, e.kind, t.name, e.source, e.version_id LIMIT ? OFFSET ?", limit, offset)
                .query(jdbc, TopologyEdgeStore::edge);
    }

    /** The versions valid at {@code t} of the edges with a version starting or ending in (from, to]. */
    List<EdgeRow> validAtAmongChanged(UUID tenant, Instant t, Instant from, Instant to, Optional<String> kind) {
        String sql = "SELECT " + EDGE_COLUMNS + VALID_BETWEEN + (kind.isPresent() ? " AND e.kind = ?" : "")
                + " AND e.edge_id IN (SELECT x.edge_id FROM topology_edges x WHERE x.tenant_id = ?"
                + " AND ((x.valid_from > ? AND x.valid_from <= ?) OR (x.valid_to > ? AND x.valid_to <= ?)))"
                + " ORDER BY e.version_id";
        List<Object> params = new ArrayList<>(List.of(tenant, ts(t), ts(t)));
        kind.ifPresent(params::add);
        params.addAll(List.of(tenant, ts(from), ts(to), ts(from), ts(to)));
        return jdbc.query(sql, TopologyEdgeStore::edge, params.toArray());
    }

    /** How many edges are one version valid at both {@code t1} and {@code t2}. */
    long untouchedCount(UUID tenant, Instant t1, Instant t2, Optional<String> kind) {
        return jdbc.queryOne("SELECT count(*) FROM topology_edges e" + untouched(kind), r -> r.getLong(1),
                untouchedParams(tenant, t1, t2, kind).toArray()).orElse(0L);
    }

    /** The first {@code limit} edges (by version) that are one version valid at both {@code t1} and {@code t2}. */
    List<EdgeRow> untouched(UUID tenant, Instant t1, Instant t2, Optional<String> kind, int limit) {
        List<Object> params = untouchedParams(tenant, t1, t2, kind);
        params.add(limit);
        return jdbc.query("SELECT " + EDGE_COLUMNS + untouched(kind) + " ORDER BY e.version_id LIMIT ?",
                TopologyEdgeStore::edge, params.toArray());
    }

    private static String untouched(Optional<String> kind) {
        return VALID_BETWEEN + (kind.isPresent() ? " AND e.kind = ?" : "");
    }

    private static List<Object> untouchedParams(UUID tenant, Instant t1, Instant t2, Optional<String> kind) {
        List<Object> params = new ArrayList<>(List.of(tenant, ts(t1), ts(t2)));
        kind.ifPresent(params::add);
        return params;
    }

    /** Every node of this name, by kind. */
    List<TenantGraph.NodeRef> nodesNamed(UUID tenant, String name) {
        return jdbc.query("SELECT id, kind, name FROM topology_nodes WHERE tenant_id = ? AND name = ? ORDER BY kind",
                TopologyNodeStore::node, tenant, name);
    }

    /** The node of this kind and name, if any. */
    List<TenantGraph.NodeRef> node(UUID tenant, String kind, String name) {
        return jdbc.query("SELECT id, kind, name FROM topology_nodes WHERE tenant_id = ? AND kind = ? AND name = ?",
                TopologyNodeStore::node, tenant, kind, name);
    }

    /** The creation records of these nodes within since..until. */
    List<NodeCreated> created(UUID tenant, List<UUID> ids, Instant since, Instant until) {
        return jdbc.query("""
                SELECT id, kind, name, created_by, created_at FROM topology_nodes
                WHERE tenant_id = ? AND id = ANY(?::uuid[]) AND created_at >= ? AND created_at <= ?""",
                rs -> new NodeCreated(TopologyNodeStore.node(rs), rs.getString("created_by"),
                        rs.getTimestamp("created_at").toInstant()),
                tenant, uuids(ids), ts(since), ts(until));
    }

    /** The newest {@code limit} versions of the edges touching these nodes, starting within since..until. */
    List<EdgeRow> versionsTouching(UUID tenant, List<UUID> ids, Instant since, Instant until, int limit) {
        return jdbc.query("SELECT " + EDGE_COLUMNS + """
                 WHERE e.tenant_id = ? AND (e.from_node = ANY(?::uuid[]) OR e.to_node = ANY(?::uuid[]))
                   AND e.valid_from >= ? AND e.valid_from <= ? ORDER BY e.version_id DESC LIMIT ?""",
                TopologyEdgeStore::edge, tenant, uuids(ids), uuids(ids), ts(since), ts(until), limit);
    }

    /**
     * The tenant's edge versions below version {@code before}, starting within since..until, newest first; with
     * a target, those its refreshes made or that touch its node.
     */
    List<EdgeRow> timeline(UUID tenant, long before, Instant since, Instant until, Optional<Target> target, int limit) {
        StringBuilder sql = new StringBuilder("SELECT " + EDGE_COLUMNS
                + " WHERE e.tenant_id = ? AND e.version_id < ? AND e.valid_from >= ? AND e.valid_from <= ?");
        List<Object> params = new ArrayList<>(List.of(tenant, before, ts(since), ts(until)));
        if (target.isPresent()) {
            sql.append(" AND (e.origin = ? OR (f.kind = 'target' AND f.name = ?) OR (t.kind = 'target' AND t.name = ?))");
            params.addAll(List.of(target.get().id().toString(), target.get().name(), target.get().name()));
        }
        sql.append(" ORDER BY e.version_id DESC LIMIT ?");
        params.add(limit);
        return jdbc.query(sql.toString(), TopologyEdgeStore::edge, params.toArray());
    }

    private static String[] uuids(List<UUID> ids) {
        return ids.stream().map(UUID::toString).toArray(String[]::new);
    }
}
