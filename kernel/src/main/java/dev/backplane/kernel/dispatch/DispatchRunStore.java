package dev.backplane.kernel.dispatch;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.JsonMapping;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.postgresql.util.PGobject;

/** SQL for asynchronous runs ({@code dispatch_runs}); every read a caller makes is scoped by tenant and principal. */
final class DispatchRunStore {

    /** A run row locked for run-cancel; {@code approval} is the approval request it is parked on, if any. */
    record CancelRow(RunStatus status, String connectorId, String opId, String target, String workRef,
                     String approval) {
    }

    /** A run the reaper failed. */
    record Orphan(UUID id, UUID tenantId, String principal, String connectorId, String opId, String target,
                  String workRef) {
    }

    private final Jdbc jdbc;

    DispatchRunStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    <T> T inTransaction(Jdbc.TxBody<T> body) {
        return jdbc.inTransaction(body);
    }

    void insertRunning(UUID id, UUID tenant, String principal, CallRequest req, String paramsHash, Timestamp leaseUntil) {
        jdbc.update("""
                INSERT INTO dispatch_runs (id, tenant_id, principal, connector_id, op_id, target, work_ref, params_hash,
                       status, lease_until) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running', ?)""",
                id, tenant, principal, req.connectorId(), req.opId(), req.target(), req.workRef().orElse(null), paramsHash,
                leaseUntil);
    }

    /** Renews a running run's lease; false once it is no longer running. */
    boolean renewLease(UUID id, Timestamp until) {
        return jdbc.update("UPDATE dispatch_runs SET lease_until = ? WHERE id = ? AND status = 'running'", until, id) > 0;
    }

    /** Finishes a run that is still running with its envelope; a cancelled (or reaped) one stays as it is. */
    void finishRunning(UUID id, RunStatus status, ResultEnvelope env) {
        try {
            PGobject json = new PGobject();
            json.setType("jsonb");
            json.setValue(JsonMapping.write(env));
            jdbc.update("UPDATE dispatch_runs SET status = ?, result = ?, finished_at = now() WHERE id = ? "
                    + "AND status = 'running'", status.wireName(), json, id);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    Optional<AsyncRuns.Run> find(UUID tenant, String principal, UUID id) {
        return jdbc.queryOne("SELECT * FROM dispatch_runs WHERE id = ? AND tenant_id = ? AND principal = ?", rs -> {
            String result = rs.getString("result");
            Timestamp finished = rs.getTimestamp("finished_at");
            return new AsyncRuns.Run(rs.getObject("id", UUID.class), rs.getString("status"), rs.getString("connector_id"),
                    rs.getString("op_id"), rs.getString("target"), Optional.ofNullable(rs.getString("work_ref")),
                    rs.getTimestamp("created_at").toInstant(), Optional.ofNullable(finished).map(Timestamp::toInstant),
                    Optional.ofNullable(result).map(DispatchRunStore::map), "/api/v1/operations/runs/" + rs.getObject("id"));
        }, id, tenant, principal);
    }

    /** The caller's run, locked until commit. */
    static Optional<CancelRow> lockForCancel(Connection c, UUID id, UUID tenant, String principal) throws SQLException {
        return Jdbc.query(c, """
                SELECT status, connector_id, op_id, target, work_ref,
                       COALESCE(approval_request_id::text, result -> 'extras' ->> 'approval_request_id') FROM dispatch_runs
                 WHERE id = ? AND tenant_id = ? AND principal = ? FOR UPDATE""", rs -> new CancelRow(
                RunStatus.of(rs.getString(1)), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getString(6)), id, tenant, principal).stream().findFirst();
    }

    static void markCancelled(Connection c, UUID id, Map<String, Object> envelope) throws SQLException {
        Jdbc.update(c, "UPDATE dispatch_runs SET status = 'cancelled', result = ?, finished_at = now() WHERE id = ?",
                Jdbc.jsonb(envelope), id);
    }

    /** Fails the pending and running runs whose lease lapsed with {@code envelope} (plus each row's op_id). */
    static List<Orphan> failLapsed(Connection c, PGobject envelope) throws SQLException {
        return Jdbc.query(c, "UPDATE dispatch_runs SET status = 'failed', "
                + "result = ? || jsonb_build_object('op_id', op_id), finished_at = now() "
                + "WHERE status IN ('pending', 'running') AND lease_until < now() "
                + "RETURNING id, tenant_id, principal, connector_id, op_id, target, work_ref", rs -> new Orphan(
                        rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getString(6), rs.getString(7)), envelope);
    }

    private static Map<String, Object> map(String json) {
        try {
            return JsonMapping.mapper().readValue(json, new TypeReference<LinkedHashMap<String, Object>>() { });
        } catch (Exception e) {
            return Map.of();
        }
    }
}
