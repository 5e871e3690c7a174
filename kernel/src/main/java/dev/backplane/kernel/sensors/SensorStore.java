package dev.backplane.kernel.sensors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.targets.Target;
import dev.backplane.kernel.util.JsonMapping;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The SQL of sensor definitions (the sensors table as created, listed, updated, paused and deleted); what
 * their runs write — claims, in-flight leases, results — is {@link SensorRunStore}'s.
 */
final class SensorStore {

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
}
