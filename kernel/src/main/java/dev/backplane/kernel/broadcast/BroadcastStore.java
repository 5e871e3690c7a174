package dev.backplane.kernel.broadcast;

import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.plugin.api.OpClass;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The writing SQL of the feed's events ({@code broadcast_events}): every write announces its stream ids on
 * the {@link ChangeFeed} topic {@value #TOPIC} at commit. No rules; reads are {@link BroadcastQueryStore}'s,
 * windows {@link WindowStore}'s.
 */
final class BroadcastStore {

    static final String TOPIC = "broadcast";

    private final Jdbc jdbc;

    BroadcastStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    <T> T inTransaction(Jdbc.TxBody<T> body) {
        return jdbc.inTransaction(body);
    }

    /**
     * Serializes the feed's writers per tenant (in one order, so they never deadlock): a tenant's stream
     * ids are then handed out and committed in the same order, so a reader that has seen id n has seen
     * every earlier id of its tenant — what Last-Event-ID resume and the hub's catch-up rely on.
     */
    static void lockTenants(Connection c, Collection<UUID> tenants) throws SQLException {
        for (UUID t : new TreeSet<>(tenants)) {
            Jdbc.query(c, "SELECT pg_advisory_xact_lock(hashtext(?))", rs -> 1, "broadcast/" + t);
        }
    }

    /** Whether the database answers at all. */
    boolean answers() {
        try {
            return jdbc.queryOne("SELECT 1", rs -> 1).isPresent();
        } catch (RuntimeException down) {
            return false;
        }
    }

    private static final String INSERT = """
            INSERT INTO broadcast_events (tenant_id, at, kind, activity, phase, op_class, connector_id, op_id, target,
                   namespace, principal, principal_kind, actor_sub, status, error_code, duration_ms, work_ref, run_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""";

    /** Inserts the activities as events (one batch) and announces their ids when {@code c} commits. */
    static void insertEvents(Connection c, List<Activity> rows) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        try (PreparedStatement insert = c.prepareStatement(INSERT, new String[] {"id"})) {
            for (Activity a : rows) {
                bindEvent(insert, a);
                insert.addBatch();
            }
            insert.executeBatch();
            try (ResultSet keys = insert.getGeneratedKeys()) {
                while (keys.next()) {
                    min = Math.min(min, keys.getLong(1));
                    max = Math.max(max, keys.getLong(1));
                }
            }
        }
        if (min <= max) {
            ChangeFeed.notifyOnCommit(c, TOPIC, min + "-" + max);
        }
    }

    private static void bindEvent(PreparedStatement ps, Activity a) throws SQLException {
        ps.setObject(1, a.tenantId());
        ps.setTimestamp(2, Timestamp.from(a.at()));
        ps.setString(3, a.kind().wireName());
        ps.setString(4, clip(a.activity(), 500));
        ps.setString(5, a.phase().orElse(null));
        ps.setString(6, a.opClass().orElse(null));
        ps.setString(7, a.connectorId().orElse(null));
        ps.setString(8, a.opId().orElse(null));
        ps.setString(9, a.target().orElse(null));
        ps.setString(10, a.namespace().orElse(null));
        ps.setString(11, a.principal());
        ps.setString(12, a.principalKind().orElse(null));
        ps.setString(13, a.actorSub());
        ps.setString(14, a.status().orElse(null));
        ps.setString(15, a.errorCode().orElse(null));
        ps.setObject(16, a.durationMs().orElse(null));
        ps.setString(17, a.workRef().orElse(null));
        ps.setString(18, a.runId().orElse(null));
    }

    /** Deletes events recorded more than {@code retentionDays} ago. Returns how many. */
    int deleteOlderThan(int retentionDays) {
        return jdbc.update("DELETE FROM broadcast_events WHERE recorded_at < now() - make_interval(days => ?)",
                retentionDays);
    }

    /**
     * In one transaction: closes the open announcements of the claim, stores this one (closed at once if
     * its phase closes the claim) and answers it. The tenant lock also keeps two announcements of one
     * claim from both staying open.
     */
    BroadcastEvent announce(UUID tenant, String sub, String principalKind, Announcements.Claim a) {
        return jdbc.inTransaction(c -> {
            lockTenants(c, List.of(tenant));
            Jdbc.update(c, "UPDATE broadcast_events SET closed_at = now() WHERE tenant_id = ? AND claim_key = ? "
                    + "AND kind = 'announcement' AND closed_at IS NULL", tenant, a.claimKey());
            BroadcastEvent e = Jdbc.query(c, """
                    INSERT INTO broadcast_events (tenant_id, at, kind, activity, phase, op_class, target, targets, principal,
                           principal_kind, actor_sub, work_ref, run_id, scope, claim_key, expires_at, closed_at)
                    VALUES (?, now(), 'announcement', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now() + make_interval(mins => ?),
                            CASE WHEN ? THEN now() END)
                    RETURNING\s""" + BroadcastEvent.COLUMNS, BroadcastEvent::read, tenant, a.activity(),
                    a.phase().wireName(), a.plannedOpClass().map(OpClass::wireName).orElse(null),
                    a.soleTarget().orElse(null), c.createArrayOf("text", a.targets().toArray()), sub, principalKind,
                    sub, a.workRef().orElse(null), a.runId().orElse(null), a.scope().orElse(null), a.claimKey(),
                    a.ttlMinutes(), a.phase().closesClaim()).getFirst();
            ChangeFeed.notifyOnCommit(c, TOPIC, e.id() + "-" + e.id());
            return e;
        });
    }

    private static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }
}
