package dev.backplane.kernel.sensors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.targets.Target;
import dev.backplane.kernel.util.JsonMapping;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The SQL of the sensors tables: sensors (definition, cadence, status, latest state, in-flight lease) and
 * sensor_results. Writes that must hold together (claiming due sensors, recording a result) are one
 * transaction each.
 */
final class SensorStore {

    /** What recording a result found: the state the sensor showed, and whether this result became its latest. */
    record Recorded(SensorState shown, boolean newest) {
    }

    /** A sensor as {@code svc automation list} shows it; {@code interval} is 0 for a cron sensor. */
    record Listed(UUID id, String name, String cadenceKind, int interval, String cron, String zone, String status,
                  String connectorId, String opId, String target, Optional<Instant> lastEvaluatedAt,
                  Optional<String> lastState) {
    }

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() { };

    private final Jdbc jdbc;

    SensorStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    <T> T inTransaction(Jdbc.TxBody<T> body) {
        return jdbc.inTransaction(body);
    }

    boolean nameTaken(UUID tenant, String name) {
        return jdbc.queryOne("SELECT 1 FROM sensors WHERE tenant_id = ? AND name = ?", rs -> 1, tenant, name).isPresent();
    }

    /** Inserts a sensor; false when its name is taken in the tenant (a concurrent create won). */
    boolean insert(UUID id, UUID tenant, String name, String connectorId, String opId, Target target,
                   Map<String, Object> params, JsonNode assertion, Cadence cadence, SensorStatus status, String principal,
                   String createdBy) {
        return uniquely(() -> jdbc.update("""
                INSERT INTO sensors (id, tenant_id, name, connector_id, op_id, target, target_id, params, assertion,
                       cadence_kind, interval_seconds, cron, time_zone, status, principal, next_run_at, created_by)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", id, tenant, name,
                connectorId, opId, target.name(), target.id(), Jdbc.jsonb(params), Jdbc.jsonb(assertion),
                cadence.kind(), cadence.interval().orElse(null), cadence.cron().orElse(null),
                cadence.zone().orElse(null), status.wire(), principal, Timestamp.from(cadence.first()), createdBy));
    }

    void setGrant(UUID id, UUID grant, SensorStatus status) {
        jdbc.update("UPDATE sensors SET grant_id = ?, status = ? WHERE id = ?", grant, status.wire(), id);
    }

    /** Removes a sensor whose creation failed half-way. */
    void remove(UUID id) {
        jdbc.update("DELETE FROM sensors WHERE id = ?", id);
    }

    void delete(UUID tenant, UUID id) {
        jdbc.update("DELETE FROM sensors WHERE tenant_id = ? AND id = ?", tenant, id);
    }

    List<Sensor> list(UUID tenant, Optional<String> cadenceKind, Optional<SensorStatus> status, int limit, int offset) {
        String s = status.map(SensorStatus::wire).orElse(null);
        return jdbc.query("""
                SELECT * FROM sensors WHERE tenant_id = ? AND (?::text IS NULL OR cadence_kind = ?)
                   AND (?::text IS NULL OR status = ?)
                 ORDER BY created_at, id LIMIT ? OFFSET ?""", SensorStore::row, tenant, cadenceKind.orElse(null),
                cadenceKind.orElse(null), s, s, limit, offset);
    }

    Optional<Sensor> find(UUID tenant, UUID id) {
        return jdbc.queryOne("SELECT * FROM sensors WHERE tenant_id = ? AND id = ?", SensorStore::row, tenant, id);
    }

    /** The tenant's sensors in creation order, as an automation list shows them. */
    List<Listed> listed(UUID tenant, int limit) {
        return jdbc.query("""
                SELECT id, name, cadence_kind, interval_seconds, cron, time_zone, status, connector_id, op_id, target,
                       last_evaluated_at, last_state
                  FROM sensors WHERE tenant_id = ? ORDER BY created_at, id LIMIT ?""", rs -> new Listed(
                rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getString(5),
                rs.getString(6), rs.getString(7), rs.getString(8), rs.getString(9), rs.getString(10),
                Optional.ofNullable(rs.getTimestamp(11)).map(Timestamp::toInstant), Optional.ofNullable(rs.getString(12))),
                tenant, limit);
    }

    /** Updates name, params, assertion and (when not null) the cadence; false when the name is taken. */
    boolean update(UUID tenant, UUID id, String name, Map<String, Object> params, JsonNode assertion, Cadence cadence) {
        return uniquely(() -> jdbc.update("""
                UPDATE sensors SET name = ?, params = ?, assertion = ?,
                       cadence_kind = coalesce(?, cadence_kind), interval_seconds = CASE WHEN ? THEN ? ELSE interval_seconds END,
                       cron = CASE WHEN ? THEN ? ELSE cron END, time_zone = CASE WHEN ? THEN ? ELSE time_zone END,
                       next_run_at = coalesce(?, next_run_at), updated_at = now()
                 WHERE tenant_id = ? AND id = ?""", name, Jdbc.jsonb(params), Jdbc.jsonb(assertion),
                cadence == null ? null : cadence.kind(), cadence != null, cadence == null ? null
                        : cadence.interval().orElse(null), cadence != null, cadence == null ? null
                        : cadence.cron().orElse(null), cadence != null, cadence == null ? null
                        : cadence.zone().orElse(null), cadence == null ? null : Timestamp.from(cadence.first()),
                tenant, id));
    }

    void setStatus(UUID tenant, UUID id, SensorStatus status, Instant next) {
        jdbc.update("UPDATE sensors SET status = ?, next_run_at = ?, updated_at = now() WHERE tenant_id = ? AND id = ?",
                status.wire(), Timestamp.from(next), tenant, id);
    }

    /** A sensor's results newest first, after the cursor {@code after} and within the bounds (each may be null). */
    List<SensorResult> results(UUID tenant, UUID id, Long after, Instant from, Instant to, Optional<SensorState> state,
                               int limit) {
        String s = state.map(SensorState::wire).orElse(null);
        return jdbc.query("""
                SELECT * FROM sensor_results WHERE sensor_id = ? AND tenant_id = ? AND (?::bigint IS NULL OR id < ?)
                   AND (?::timestamptz IS NULL OR evaluated_at >= ?) AND (?::timestamptz IS NULL OR evaluated_at <= ?)
                   AND (?::text IS NULL OR state = ?)
                 ORDER BY id DESC LIMIT ?""", SensorStore::resultRow, id, tenant, after, after, ts(from), ts(from),
                ts(to), ts(to), s, s, limit);
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

    private static boolean uniquely(Runnable write) {
        try {
            write.run();
            return true;
        } catch (Jdbc.DataAccessException e) {
            if (e.getCause() instanceof SQLException sql && "23505".equals(sql.getSQLState())) {
                return false;
            }
            throw e;
        }
    }

    private static Timestamp ts(Instant at) {
        return at == null ? null : Timestamp.from(at);
    }

    static Sensor row(ResultSet rs) throws SQLException {
        Map<String, Object> params;
        JsonNode assertion;
        try {
            params = JsonMapping.mapper().readValue(rs.getString("params"), MAP);
            assertion = JsonMapping.mapper().readTree(rs.getString("assertion"));
        } catch (JsonProcessingException e) {
            throw new SQLException("sensor params or assertion is not JSON", e);
        }
        int interval = rs.getInt("interval_seconds");
        Optional<Integer> intervalSeconds = rs.wasNull() ? Optional.empty() : Optional.of(interval);
        return new Sensor(rs.getObject("id", UUID.class), rs.getString("name"), rs.getString("status"),
                rs.getString("cadence_kind"), intervalSeconds, Optional.ofNullable(rs.getString("cron")),
                Optional.ofNullable(rs.getString("time_zone")), rs.getString("connector_id"), rs.getString("op_id"),
                rs.getString("target"), rs.getObject("target_id", UUID.class), params, assertion,
                rs.getString("principal"), Optional.ofNullable(rs.getObject("grant_id", UUID.class)),
                rs.getTimestamp("next_run_at").toInstant(),
                Optional.ofNullable(rs.getString("last_state")).orElse(SensorState.INITIAL.wire()),
                Optional.ofNullable(rs.getTimestamp("last_evaluated_at")).map(Timestamp::toInstant),
                rs.getString("created_by"), rs.getTimestamp("created_at").toInstant(),
                rs.getTimestamp("updated_at").toInstant());
    }

    private static SensorResult resultRow(ResultSet rs) throws SQLException {
        return new SensorResult(rs.getLong("id"), rs.getObject("sensor_id", UUID.class),
                rs.getTimestamp("due_at").toInstant(), rs.getTimestamp("evaluated_at").toInstant(), rs.getString("state"),
                rs.getString("detail"), rs.getString("call_status"), Optional.ofNullable(rs.getObject("audit_id", UUID.class)),
                rs.getInt("duration_ms"));
    }
}
