package dev.backplane.kernel.sensors;

import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The SQL of sensor runs: claiming due sensors and holding them in flight (on the sensors table), and
 * sensor_results (recording, listing, sweeping). Writes that must hold together (claiming due sensors,
 * recording a result) are one transaction each.
 */
final class SensorRunStore {

    /** What recording a result found: the state the sensor showed, and whether this result became its latest. */
    record Recorded(SensorState shown, boolean newest) {
    }

    private final Jdbc jdbc;

    SensorRunStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    <T> T inTransaction(Jdbc.TxBody<T> body) {
        return jdbc.inTransaction(body);
    }

    /** Locks and returns up to {@code batch} active sensors due within {@code lookahead} and not in flight. */
    static List<SensorRuns.Due> claimDue(Connection c, Duration lookahead, int batch) throws SQLException {
        return Jdbc.query(c, """
                SELECT id, tenant_id, connector_id, op_id, target, params, assertion, principal, interval_seconds,
                       cron, time_zone, next_run_at
                  FROM sensors WHERE status = 'active' AND next_run_at <= now() + make_interval(secs => ?)
                   AND (running_until IS NULL OR running_until < now())
                 ORDER BY next_run_at LIMIT ? FOR UPDATE SKIP LOCKED""", rs -> {
            Integer interval = rs.getObject(9, Integer.class); // null for a cron sensor
            return new SensorRuns.Due(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getString(3),
                    rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8),
                    interval, rs.getString(10), rs.getString(11), rs.getTimestamp(12).toInstant());
        }, (double) lookahead.toSeconds(), batch);
    }

    /** Sets a claimed sensor's next run and holds it in flight until {@code leaseUntil}. */
    static void scheduleNext(Connection c, UUID id, Instant next, Instant leaseUntil) throws SQLException {
        Jdbc.update(c, "UPDATE sensors SET next_run_at = ?, running_until = ? WHERE id = ?", Timestamp.from(next),
                Timestamp.from(leaseUntil), id);
    }

    static void setStatus(Connection c, UUID id, SensorStatus status) throws SQLException {
        Jdbc.update(c, "UPDATE sensors SET status = ?, updated_at = now() WHERE id = ?", status.wire(), id);
    }

    /** Clears the in-flight marker of a claimed run. */
    void release(UUID id) {
        jdbc.update("UPDATE sensors SET running_until = NULL WHERE id = ?", id);
    }

    Optional<SensorStatus> status(UUID id) {
        return jdbc.queryOne("SELECT status FROM sensors WHERE id = ?", rs -> rs.getString(1), id)
                .flatMap(SensorStatus::of);
    }

    /**
     * Records a run's result and, when its due time is the newest recorded, the sensor's latest state; clears
     * its in-flight marker. Empty when the sensor was deleted while it ran.
     */
    Optional<Recorded> record(SensorRuns.Due d, RunOutcome o, int durationMs) {
        return jdbc.inTransaction(c -> {
            List<String> before = Jdbc.query(c, "SELECT coalesce(last_state, 'unknown') FROM sensors WHERE id = ? "
                    + "FOR UPDATE", rs -> rs.getString(1), d.id());
            if (before.isEmpty()) {
                return Optional.<Recorded>empty();
            }
            Jdbc.update(c, """
                    INSERT INTO sensor_results (sensor_id, tenant_id, due_at, evaluated_at, state, detail, call_status,
                                                audit_id, duration_ms)
                    VALUES (?, ?, ?, now(), ?, ?, ?, ?, ?)""", d.id(), d.tenant(), Timestamp.from(d.at()), o.state().wire(),
                    o.detail(), o.callStatus(), o.auditId().orElse(null), durationMs);
            int latest = Jdbc.update(c, """
                    UPDATE sensors SET last_state = ?, last_evaluated_at = now(), last_due_at = ?
                     WHERE id = ? AND (last_due_at IS NULL OR last_due_at <= ?)""", o.state().wire(),
                    Timestamp.from(d.at()), d.id(), Timestamp.from(d.at()));
            Jdbc.update(c, "UPDATE sensors SET running_until = NULL WHERE id = ?", d.id());
            return Optional.of(new Recorded(SensorState.stored(before.getFirst()), latest > 0));
        });
    }

    /** Deletes results evaluated more than {@code retentionDays} ago; returns how many. */
    int sweep(int retentionDays) {
        return jdbc.update("DELETE FROM sensor_results WHERE evaluated_at < now() - make_interval(days => ?)", retentionDays);
    }

    /** A sensor's results newest first, after the cursor {@code after} and within the bounds (each may be null). */
    List<SensorResult> results(UUID tenant, UUID id, Long after, Instant from, Instant to, Optional<SensorState> state,
                               int limit) {
        String s = state.map(SensorState::wire).orElse(null);
        return jdbc.query("""
                SELECT * FROM sensor_results WHERE sensor_id = ? AND tenant_id = ? AND (?::bigint IS NULL OR id < ?)
                   AND (?::timestamptz IS NULL OR evaluated_at >= ?) AND (?::timestamptz IS NULL OR evaluated_at <= ?)
                   AND (?::text IS NULL OR state = ?)
                 ORDER BY id DESC LIMIT ?""", SensorRunStore::resultRow, id, tenant, after, after, ts(from), ts(from),
                ts(to), ts(to), s, s, limit);
    }

    private static Timestamp ts(Instant at) {
        return at == null ? null : Timestamp.from(at);
    }

    private static SensorResult resultRow(ResultSet rs) throws SQLException {
        return new SensorResult(rs.getLong("id"), rs.getObject("sensor_id", UUID.class),
                rs.getTimestamp("due_at").toInstant(), rs.getTimestamp("evaluated_at").toInstant(), rs.getString("state"),
                rs.getString("detail"), rs.getString("call_status"), Optional.ofNullable(rs.getObject("audit_id", UUID.class)),
                rs.getInt("duration_ms"));
    }
}
