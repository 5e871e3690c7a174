package dev.backplane.kernel.audit;

import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.postgresql.util.PGobject;

/** The audit log's writes: a row's insert (alone, in a caller's transaction, or in a caller's statement), its outcome, the reaper's update. */
final class AuditStore {

    private static final String INSERT = """
            INSERT INTO audit_rows (id, tenant_id, principal, principal_kind, op_class, op_id, connector_id, target,
                   target_id, result_status, error_code, duration_ms, session_id, parent_audit_id, work_ref,
                   params_hash, approval_request_id, extras)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""";

    private final Jdbc jdbc;

    AuditStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** One auto-committed statement: a single round trip, durable when it returns. */
    void insert(UUID id, AuditLog.Entry e, String status, Optional<String> errorCode, Optional<Integer> duration,
                Optional<UUID> approvalId, PGobject extras) {
        jdbc.update(INSERT, values(id, e, status, errorCode, duration, approvalId, extras));
    }

    /** The same row on {@code c}, inside the caller's transaction. */
    static void insertIn(Connection c, UUID id, AuditLog.Entry e, String status, Optional<String> errorCode,
                         Optional<UUID> approvalId, PGobject extras) throws SQLException {
        Jdbc.update(c, INSERT, values(id, e, status, errorCode, Optional.of(0), approvalId, extras));
    }

    private static Object[] values(UUID id, AuditLog.Entry e, String status, Optional<String> errorCode,
                                   Optional<Integer> duration, Optional<UUID> approvalId, PGobject extras) {
        return new Object[] {id, e.tenantId(), e.principal(), e.principalKind(), e.opClass(), e.opId(),
                e.connectorId().orElse(null), e.target().orElse(null), e.targetId().orElse(null), status,
                errorCode.orElse(null), duration.orElse(null), e.sessionId().orElse(null), e.parentAuditId().orElse(null),
                e.workRef().orElse(null), e.paramsHash().orElse(null), approvalId.orElse(null), extras};
    }

    /** {@code INSERT ... SELECT ... FROM <from>}: the row written as part of a writer's own statement. */
    static AuditLog.Insert insertSelectFrom(String from, UUID id, AuditLog.Entry e, String status, PGobject extras) {
        String sql = """
                INSERT INTO audit_rows (id, tenant_id, principal, principal_kind, op_class, op_id, connector_id, target,
                       target_id, result_status, duration_ms, session_id, parent_audit_id, work_ref, params_hash, extras)
                SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ? FROM\s""" + from;
        List<Object> params = new ArrayList<>(Arrays.asList(id, e.tenantId(), e.principal(), e.principalKind(),
                e.opClass(), e.opId(), e.connectorId().orElse(null), e.target().orElse(null), e.targetId().orElse(null),
                status, e.sessionId().orElse(null), e.parentAuditId().orElse(null), e.workRef().orElse(null),
                e.paramsHash().orElse(null), extras));
        return new AuditLog.Insert(sql, params);
    }

    /**
     * Records a started row's outcome in a transaction that commits without waiting for its flush
     * ({@link Jdbc#UNFLUSHED_COMMIT}; why that is safe: {@link AuditLog}). The row began at most {@code durationMs}
     * ago: a lower bound on its time (a day of slack for the clocks of the kernel and the database) lets PostgreSQL
     * look in this month's partition only; a row the bound misses (clocks further apart) is found without it.
     */
    void finish(UUID id, String status, Optional<String> errorCode, long durationMs) {
        String update = "UPDATE audit_rows SET result_status = ?, error_code = ?, duration_ms = ? FROM "
                + Jdbc.UNFLUSHED_COMMIT + " WHERE id = ?";
        int duration = (int) Math.min(Integer.MAX_VALUE, durationMs);
        Timestamp after = Timestamp.from(java.time.Instant.now().minusMillis(Math.max(0, durationMs))
                .minus(Duration.ofDays(1)));
        if (jdbc.update(update + " AND occurred_at >= ?", status, errorCode.orElse(null), duration, id, after) == 0) {
            jdbc.update(update, status, errorCode.orElse(null), duration, id);
        }
    }

    /** Closes rows {@code started} longer than {@code olderThan} as error/outcome_unknown; returns how many. */
    int reapStarted(Duration olderThan) {
        return jdbc.update("UPDATE audit_rows SET result_status = 'error', error_code = 'outcome_unknown' "
                + "WHERE result_status = 'started' AND occurred_at < now() - make_interval(secs => ?)",
                (double) olderThan.toSeconds());
    }
}
