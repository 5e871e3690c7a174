package dev.backplane.kernel.topology;

import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/**
 * The SQL of a topology write's frame and of the whole tables: the tenant's write lock and instant, the
 * graph's load, refresh bookkeeping and the history sweep. Nodes, current edges and history reads have
 * their own stores ({@link TopologyNodeStore}, {@link TopologyEdgeStore}, {@link TopologyHistoryStore}).
 */
final class TopologyStore {

    private final Jdbc jdbc;

    TopologyStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    Jdbc jdbc() {
        return jdbc;
    }

    /** Runs {@code body} in one transaction (the Connection-taking statements of the topology stores). */
    <T> T inTransaction(Jdbc.TxBody<T> body) {
        return jdbc.inTransaction(body);
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
                    rs -> g.putNode(TopologyNodeStore.node(rs)));
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
    List<DueTarget> dueTargets(Duration every, List<String> products) {
        return jdbc.query("""
                SELECT t.tenant_id, t.id, t.name FROM targets_targets t
                LEFT JOIN topology_refreshes r ON r.tenant_id = t.tenant_id AND r.target_id = t.id
                WHERE t.product = ANY(?::text[]) AND (r.refreshed_at IS NULL OR r.refreshed_at < ?)
                ORDER BY r.refreshed_at NULLS FIRST LIMIT 100""", rs -> new DueTarget(rs.getObject(1, UUID.class),
                rs.getObject(2, UUID.class), rs.getString(3)), products.toArray(String[]::new), ts(Instant.now().minus(every)));
    }

    /** Deletes closed versions older than the retention (current rows are kept however old). */
    int sweep(Duration retention) {
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
