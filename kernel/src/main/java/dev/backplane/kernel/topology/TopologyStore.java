package dev.backplane.kernel.topology;

import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The SQL of the topology tables: nodes, edge versions and refresh bookkeeping. Sets of rows go in and
 * out as arrays ({@code unnest}), so a bulk import of 100k edges is a handful of statements, not 100k.
 */
final class TopologyStore {

    /** One version row of an edge, with its ends' kinds and names. */
    record EdgeRow(long versionId, UUID edgeId, UUID from, String fromKind, String fromName, String kind, UUID to,
                   String toKind, String toName, String source, String origin, String note, String evidenceUrl,
                   boolean conflict, boolean stale, String change, String changedBy, Instant validFrom,
                   Instant validTo) {

        /** The same edge's next version: new content, new change, not yet written. */
        EdgeRow next(String note, String evidenceUrl, boolean conflict, boolean stale, String change, String by,
                     Instant at) {
            return new EdgeRow(0, edgeId, from, fromKind, fromName, kind, to, toKind, toName, source, origin, note,
                    evidenceUrl, conflict, stale, change, by, at, null);
        }

        boolean sameContent(String otherNote, String otherEvidence, boolean otherStale) {
            return java.util.Objects.equals(note, otherNote) && java.util.Objects.equals(evidenceUrl, otherEvidence)
                    && stale == otherStale;
        }
    }

    static final String EDGE_COLUMNS = """
            e.version_id, e.edge_id, e.from_node, f.kind AS from_kind, f.name AS from_name, e.kind, e.to_node,
            t.kind AS to_kind, t.name AS to_name, e.source, e.origin, e.note, e.evidence_url, e.conflict, e.stale,
            e.change, e.changed_by, e.valid_from, e.valid_to
            FROM topology_edges e JOIN topology_nodes f ON f.id = e.from_node JOIN topology_nodes t ON t.id = e.to_node""" + " ";

    private final Jdbc jdbc;

    TopologyStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    Jdbc jdbc() {
        return jdbc;
    }

    static EdgeRow edge(ResultSet rs) throws SQLException {
        Timestamp to = rs.getTimestamp("valid_to");
        return new EdgeRow(rs.getLong("version_id"), rs.getObject("edge_id", UUID.class),
                rs.getObject("from_node", UUID.class), rs.getString("from_kind"), rs.getString("from_name"),
                rs.getString("kind"), rs.getObject("to_node", UUID.class), rs.getString("to_kind"),
                rs.getString("to_name"), rs.getString("source"), rs.getString("origin"), rs.getString("note"),
                rs.getString("evidence_url"), rs.getBoolean("conflict"), rs.getBoolean("stale"), rs.getString("change"),
                rs.getString("changed_by"), rs.getTimestamp("valid_from").toInstant(), to == null ? null : to.toInstant());
    }

    static TenantGraph.NodeRef node(ResultSet rs) throws SQLException {
        return new TenantGraph.NodeRef(rs.getObject("id", UUID.class), rs.getString("kind"), rs.getString("name"));
    }

    /** Serializes a tenant's topology writers across replicas (conflict flags and versions stay consistent). */
    static void lockTenant(Connection c, UUID tenant) throws SQLException {
        Jdbc.query(c, "SELECT pg_advisory_xact_lock(hashtextextended('topology:' || ?, 0))", rs -> 1, tenant.toString());
    }

    /**
     * The instant a write under the tenant's lock happens at: the database's clock (not this replica's,
     * which may be skewed or stepped back), never before the tenant's latest version, so versions stay in
     * order and closing a row never puts its {@code valid_to} before its {@code valid_from}. Taken after the
     * lock ({@code clock_timestamp()}, not {@code now()}, which is the transaction's start before the wait).
     */
    static Instant writeInstant(Connection c, UUID tenant) throws SQLException {
        return Jdbc.query(c, """
                SELECT greatest(clock_timestamp(), coalesce((SELECT max(valid_from) FROM topology_edges
                       WHERE tenant_id = ?), '-infinity'::timestamptz))""", rs -> rs.getTimestamp(1).toInstant(),
                tenant).getFirst();
    }

    /**
     * The whole current graph of a tenant, streamed (a large tenant does not sit in memory twice). Nodes and
     * edges are read in one REPEATABLE READ snapshot: a write committing between the two reads would
     * otherwise give edges naming nodes the graph does not know.
     */
    TenantGraph load(UUID tenant) {
        return jdbc.inTransaction(c -> {
            Jdbc.update(c, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
            TenantGraph g = new TenantGraph();
            stream(c, "SELECT id, kind, name FROM topology_nodes WHERE tenant_id = ?", tenant,
                    rs -> g.putNode(node(rs)));
            stream(c, "SELECT edge_id, from_node, to_node, kind, source, stale, conflict FROM topology_edges "
                    + "WHERE tenant_id = ? AND valid_to IS NULL", tenant, rs -> g.putEdge(rs.getObject(1, UUID.class),
                    rs.getObject(2, UUID.class), rs.getObject(3, UUID.class), rs.getString(4), rs.getString(5),
                    rs.getBoolean(6), rs.getBoolean(7)));
            return g;
        });
    }

    private interface RowSink {
        void accept(ResultSet rs) throws SQLException;
    }

    private static void stream(Connection c, String sql, UUID tenant, RowSink sink) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setFetchSize(10_000);
            ps.setObject(1, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    sink.accept(rs);
                }
            }
        }
    }

    static List<TenantGraph.NodeRef> nodesNamed(Connection c, UUID tenant, Collection<String> names) throws SQLException {
        return Jdbc.query(c, "SELECT id, kind, name FROM topology_nodes WHERE tenant_id = ? AND name = ANY(?)",
                TopologyStore::node, tenant, array(c, "text", names));
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
                WHERE n.tenant_id = ?""", TopologyStore::node, array(c, "text", kinds), array(c, "text", names), tenant);
    }

    /** Current rows of the given (from, kind, to, source, origin) keys. */
    static List<EdgeRow> currentByKeys(Connection c, UUID tenant, List<UUID> froms, List<String> kinds, List<UUID> tos,
                                       String source, String origin) throws SQLException {
        return Jdbc.query(c, "SELECT " + EDGE_COLUMNS + """
                 JOIN unnest(?::uuid[], ?::text[], ?::uuid[]) AS k(f, kd, t)
                  ON e.from_node = k.f AND e.kind = k.kd AND e.to_node = k.t
                WHERE e.tenant_id = ? AND e.valid_to IS NULL AND e.source = ? AND e.origin = ?""", TopologyStore::edge,
                array(c, "uuid", froms), array(c, "text", kinds), array(c, "uuid", tos), tenant, source, origin);
    }

    /** Current rows of single-valued kinds leaving these nodes (where conflicts are decided). */
    static List<EdgeRow> currentFrom(Connection c, UUID tenant, Collection<UUID> froms, Collection<String> kinds)
            throws SQLException {
        return Jdbc.query(c, "SELECT " + EDGE_COLUMNS + """
                 WHERE e.tenant_id = ? AND e.valid_to IS NULL AND e.from_node = ANY(?) AND e.kind = ANY(?)""",
                TopologyStore::edge, tenant, array(c, "uuid", froms), array(c, "text", kinds));
    }

    /** Current auto rows a target's refreshes wrote. */
    static List<EdgeRow> currentOfOrigin(Connection c, UUID tenant, String origin) throws SQLException {
        return Jdbc.query(c, "SELECT " + EDGE_COLUMNS + " WHERE e.tenant_id = ? AND e.valid_to IS NULL "
                + "AND e.source = 'auto' AND e.origin = ?", TopologyStore::edge, tenant, origin);
    }

    /** Closes current rows (their successors, if any, are inserted by {@link #insert}). */
    static void close(Connection c, List<Long> versionIds, Instant at) throws SQLException {
        for (int from = 0; from < versionIds.size(); from += 10_000) {
            List<Long> part = versionIds.subList(from, Math.min(versionIds.size(), from + 10_000));
            Jdbc.update(c, "UPDATE topology_edges SET valid_to = ? WHERE version_id = ANY(?)", ts(at),
                    array(c, "int8", part));
        }
    }

    /** Inserts new version rows; a row with {@code validTo} set is a removal marker. */
    static void insert(Connection c, UUID tenant, List<EdgeRow> rows) throws SQLException {
        for (int from = 0; from < rows.size(); from += 10_000) {
            List<EdgeRow> part = rows.subList(from, Math.min(rows.size(), from + 10_000));
            Jdbc.update(c, """
                    INSERT INTO topology_edges (edge_id, tenant_id, from_node, kind, to_node, source, origin, note,
                           evidence_url, conflict, stale, change, changed_by, valid_from, valid_to)
                    SELECT r.edge_id, ?, r.from_node, r.kind, r.to_node, r.source, r.origin, r.note, r.evidence_url,
                           r.conflict, r.stale, r.change, r.changed_by, r.valid_from, r.valid_to
                    FROM unnest(?::uuid[], ?::uuid[], ?::text[], ?::uuid[], ?::text[], ?::text[], ?::text[], ?::text[],
                                ?::boolean[], ?::boolean[], ?::text[], ?::text[], ?::text[]::timestamptz[], ?::text[]::timestamptz[])
                         AS r(edge_id, from_node, kind, to_node, source, origin, note, evidence_url, conflict, stale,
                              change, changed_by, valid_from, valid_to)""", tenant,
                    array(c, "uuid", part.stream().map(EdgeRow::edgeId).toList()),
                    array(c, "uuid", part.stream().map(EdgeRow::from).toList()),
                    array(c, "text", part.stream().map(EdgeRow::kind).toList()),
                    array(c, "uuid", part.stream().map(EdgeRow::to).toList()),
                    array(c, "text", part.stream().map(EdgeRow::source).toList()),
                    array(c, "text", part.stream().map(EdgeRow::origin).toList()),
                    array(c, "text", part.stream().map(EdgeRow::note).toList()),
                    array(c, "text", part.stream().map(EdgeRow::evidenceUrl).toList()),
                    array(c, "bool", part.stream().map(EdgeRow::conflict).toList()),
                    array(c, "bool", part.stream().map(EdgeRow::stale).toList()),
                    array(c, "text", part.stream().map(EdgeRow::change).toList()),
                    array(c, "text", part.stream().map(EdgeRow::changedBy).toList()),
                    array(c, "text", part.stream().map(r -> r.validFrom().toString()).toList()),
                    array(c, "text", part.stream().map(r -> r.validTo() == null ? null : r.validTo().toString()).toList()));
        }
    }

    /** Records a refresh's outcome at {@code at} (null: the database's clock). */
    static void refreshed(Connection c, UUID tenant, UUID target, String outcome, Instant at) throws SQLException {
        Jdbc.update(c, """
                INSERT INTO topology_refreshes (tenant_id, target_id, refreshed_at, outcome)
                VALUES (?, ?, coalesce(?::timestamptz, clock_timestamp()), ?)
                ON CONFLICT (tenant_id, target_id) DO UPDATE SET refreshed_at = excluded.refreshed_at,
                       outcome = excluded.outcome""", tenant, target, at == null ? null : ts(at), outcome);
    }

    /** A target due for a scheduled refresh. */
    record DueTarget(UUID tenant, UUID targetId, String name) {
    }

    /**
     * Targets of the discoverable products not refreshed within {@code every}, oldest first (at most 100 a
     * round). Reads the target registry's table directly: a read of two columns, no write, so discovery
     * needs no cross-tenant listing in the registry's service.
     */
    List<DueTarget> dueTargets(java.time.Duration every, List<String> products) {
        return jdbc.query("""
                SELECT t.tenant_id, t.id, t.name FROM targets_targets t
                LEFT JOIN topology_refreshes r ON r.tenant_id = t.tenant_id AND r.target_id = t.id
                WHERE t.product = ANY(?::text[]) AND (r.refreshed_at IS NULL OR r.refreshed_at < ?)
                ORDER BY r.refreshed_at NULLS FIRST LIMIT 100""", rs -> new DueTarget(rs.getObject(1, UUID.class),
                rs.getObject(2, UUID.class), rs.getString(3)), products.toArray(String[]::new), ts(Instant.now().minus(every)));
    }

    /** Deletes closed versions older than the retention (current rows are kept however old). */
    int sweep(java.time.Duration retention) {
        return jdbc.update("DELETE FROM topology_edges WHERE valid_to IS NOT NULL AND valid_to < ?",
                ts(Instant.now().minus(retention)));
    }

    static Timestamp ts(Instant at) {
        return Timestamp.from(at);
    }

    static Array array(Connection c, String type, Collection<?> values) throws SQLException {
        return c.createArrayOf(type, values.toArray());
    }
}
