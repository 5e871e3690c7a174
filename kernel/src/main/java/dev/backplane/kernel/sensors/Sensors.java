package dev.backplane.kernel.sensors;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.github.kagkarlsson.scheduler.task.schedule.CronSchedule;
import com.github.kagkarlsson.scheduler.task.schedule.CronStyle;
import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.governance.ServiceGrants;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.targets.Target;
import dev.backplane.kernel.targets.TargetService;
import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.kernel.util.JsonSchemas;
import dev.backplane.kernel.util.Paging;
import dev.backplane.kernel.util.Times;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The sensors of a tenant: create (a read operation only, with its exact service grant), list, show,
 * update, pause, resume, delete, and their results. Each sensor runs as its own service principal
 * {@code svc-sensor:<id>}; creating it grants that principal exactly this connector, operation and
 * target (reason "sensor &lt;name&gt;"), and deleting it revokes the grant — so a sensor can never
 * reach anything but the one read it was created for, and its runs pass the same gate as any call.
 */
public final class Sensors {

    /** The body of create and update; absent fields of an update stay as they are. */
    public record Write(String name, String connectorId, String opId, String target, Map<String, Object> params,
                        JsonNode assertion, Integer intervalSeconds, String cron, String timeZone, String status) {
    }

    /** A page of results and the cursor of the next page (absent on the last one). */
    public record ResultPage(List<SensorResult> results, Optional<String> nextCursor) {
    }

    public static final Paging.Size PAGE = new Paging.Size(100, 500);
    static final int MIN_INTERVAL_SECONDS = 5;
    static final int MAX_INTERVAL_SECONDS = 86_400;
    static final int MAX_PARAMS_CHARS = 16_384;
    static final String PRINCIPAL_PREFIX = "svc-sensor:";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
    private static final Set<String> STATUSES = Set.of("active", "paused");
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() { };

    private final Jdbc jdbc;
    private final CatalogService catalog;
    private final TargetService targets;
    private final ServiceGrants grants;
    private final List<SensorDeletionListener> deletionListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    public Sensors(Jdbc jdbc, CatalogService catalog, TargetService targets, ServiceGrants grants) {
        this.jdbc = jdbc;
        this.catalog = catalog;
        this.targets = targets;
        this.grants = grants;
    }

    /** Adds a listener told about each deleted sensor. */
    public void onDelete(SensorDeletionListener listener) {
        deletionListeners.add(listener);
    }

    public Sensor create(Caller caller, Write w) {
        caller.requireHuman("creating a sensor (it grants the sensor's service principal its operation)");
        String name = name(w.name());
        require(w.connectorId(), "connector_id");
        require(w.opId(), "op_id");
        require(w.target(), "target");
        CatalogService.EffectiveOperation op = catalog.effective(caller.tenantId(), w.connectorId(), w.opId());
        if (!op.descriptor().isReadClass()) {
            throw SensorErrors.NOT_A_READ_OPERATION.error("operation " + w.opId() + " of " + w.connectorId()
                    + " is not a read operation (a read that is GET or HEAD when HTTP-shaped); a sensor may only run "
                    + "reads", Map.of("field", "op_id"));
        }
        if (op.view().requiresApproval()) {
            throw SensorErrors.INVALID_SENSOR.error("operation " + w.opId() + " of " + w.connectorId() + " requires "
                    + "approval; a sensor runs unattended and never waits for one", Map.of("field", "op_id"));
        }
        Target target = targets.describe(caller.tenantId(), w.target());
        Map<String, Object> params = params(w.params());
        checkParams(op.descriptor().paramsSchema(), params);
        Assertion assertion = Assertion.parse(w.assertion());
        Cadence cadence = cadence(w.intervalSeconds(), w.cron(), w.timeZone());
        String status = w.status() == null ? "active" : status(w.status());
        if (jdbc.queryOne("SELECT 1 FROM sensors WHERE tenant_id = ? AND name = ?", rs -> 1, caller.tenantId(), name)
                .isPresent()) {
            throw exists(name);
        }
        UUID id = UUID.randomUUID();
        String principal = PRINCIPAL_PREFIX + id;
        try {
            jdbc.update("""
                    INSERT INTO sensors (id, tenant_id, name, connector_id, op_id, target, target_id, params, assertion,
                           cadence_kind, interval_seconds, cron, time_zone, status, principal, next_run_at, created_by)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", id, caller.tenantId(), name,
                    w.connectorId(), w.opId(), target.name(), target.id(), Jdbc.jsonb(params), Jdbc.jsonb(assertion.source()),
                    cadence.kind(), cadence.interval().orElse(null), cadence.cron().orElse(null),
                    cadence.zone().orElse(null), "paused", principal, Timestamp.from(cadence.first()), caller.sub());
        } catch (Jdbc.DataAccessException e) {
            if (e.getCause() instanceof SQLException sql && "23505".equals(sql.getSQLState())) {
                throw exists(name);
            }
            throw e;
        }
        try {
            UUID grant = grants.create(caller.tenantId(), caller.sub(), principal, w.connectorId(), w.opId(),
                    "sensor " + name + " (" + id + ")", Optional.of(target.id().toString()), Optional.empty(),
                    Optional.empty(), Optional.empty()).id();
            // inserted paused, active only once its grant exists: no run is claimed before it could pass the gate
            jdbc.update("UPDATE sensors SET grant_id = ?, status = ? WHERE id = ?", grant, status, id);
        } catch (RuntimeException e) {
            jdbc.update("DELETE FROM sensors WHERE id = ?", id);
            throw e;
        }
        return show(caller.tenantId(), id);
    }

    public List<Sensor> list(UUID tenant, Optional<String> cadenceKind, Optional<String> status, int limit, int offset) {
        Paging page = PAGE.checked(limit, offset);
        cadenceKind.ifPresent(k -> {
            if (!k.equals("interval") && !k.equals("cron")) {
                throw CommonErrors.INVALID_QUERY.error("cadence_kind must be interval or cron, got '" + k + "'",
                        Map.of("field", "cadence_kind"));
            }
        });
        status.ifPresent(s -> {
            if (!STATUSES.contains(s)) {
                throw CommonErrors.INVALID_STATUS.error("status must be active or paused, got '" + s + "'",
                        Map.of("field", "status"));
            }
        });
        return jdbc.query("""
                SELECT * FROM sensors WHERE tenant_id = ? AND (?::text IS NULL OR cadence_kind = ?)
                   AND (?::text IS NULL OR status = ?)
                 ORDER BY created_at, id LIMIT ? OFFSET ?""", Sensors::row, tenant, cadenceKind.orElse(null),
                cadenceKind.orElse(null), status.orElse(null), status.orElse(null), page.limit(), page.offset());
    }

    public Sensor show(UUID tenant, UUID id) {
        return jdbc.queryOne("SELECT * FROM sensors WHERE tenant_id = ? AND id = ?", Sensors::row, tenant, id)
                .orElseThrow(() -> notFound(id.toString()));
    }

    /** What a sensor id answers when it is not a uuid or names no sensor of the tenant. */
    public static dev.backplane.kernel.errors.DomainException notFound(String id) {
        return SensorErrors.SENSOR_NOT_FOUND.error("no sensor " + id + " in this tenant");
    }

    /**
     * Changes name, params, assertion or cadence; what it runs (connector, operation, target) is fixed at
     * creation because the sensor's grant names exactly that — delete and re-create to change it.
     */
    public Sensor update(Caller caller, UUID id, Write w) {
        Sensor s = show(caller.tenantId(), id);
        if (w.connectorId() != null || w.opId() != null || w.target() != null) {
            throw SensorErrors.INVALID_SENSOR.error("connector_id, op_id and target cannot change (the sensor's service "
                    + "grant names exactly them); delete the sensor and create a new one", Map.of("field", "op_id"));
        }
        if (w.status() != null) {
            throw SensorErrors.INVALID_SENSOR.error("status changes with pause and resume", Map.of("field", "status"));
        }
        String name = w.name() == null ? s.name() : name(w.name());
        Map<String, Object> params = w.params() == null ? s.params() : params(w.params());
        if (w.params() != null) {
            checkParams(catalog.descriptor(caller.tenantId(), s.connectorId(), s.opId()).paramsSchema(), params);
        }
        JsonNode assertion = w.assertion() == null ? s.assertion() : Assertion.parse(w.assertion()).source();
        boolean cadenceChanged = w.intervalSeconds() != null || w.cron() != null || w.timeZone() != null;
        Cadence cadence = !cadenceChanged ? null : w.intervalSeconds() != null
                ? cadence(w.intervalSeconds(), w.cron(), w.timeZone())
                : cadence(null, w.cron() != null ? w.cron() : s.cron().orElse(null),
                        w.timeZone() != null ? w.timeZone() : s.timeZone().orElse(null));
        try {
            jdbc.update("""
                    UPDATE sensors SET name = ?, params = ?, assertion = ?,
                           cadence_kind = coalesce(?, cadence_kind), interval_seconds = CASE WHEN ? THEN ? ELSE interval_seconds END,
                           cron = CASE WHEN ? THEN ? ELSE cron END, time_zone = CASE WHEN ? THEN ? ELSE time_zone END,
                           next_run_at = coalesce(?, next_run_at), updated_at = now()
                     WHERE tenant_id = ? AND id = ?""", name, Jdbc.jsonb(params), Jdbc.jsonb(assertion),
                    cadence == null ? null : cadence.kind(), cadence != null, cadence == null ? null
                            : cadence.interval().orElse(null), cadence != null, cadence == null ? null
                            : cadence.cron().orElse(null), cadence != null, cadence == null ? null
                            : cadence.zone().orElse(null), cadence == null ? null : Timestamp.from(cadence.first()),
                    caller.tenantId(), id);
        } catch (Jdbc.DataAccessException e) {
            if (e.getCause() instanceof SQLException sql && "23505".equals(sql.getSQLState())) {
                throw exists(name);
            }
            throw e;
        }
        return show(caller.tenantId(), id);
    }

    /** Pauses or resumes; a resumed sensor runs at its next cadence from now, not for the time it was paused. */
    public Sensor setStatus(Caller caller, UUID id, String status) {
        Sensor s = show(caller.tenantId(), id);
        Instant next = s.status().equals(status) ? s.nextRunAt() : cadence(s.intervalSeconds().orElse(null),
                s.cron().orElse(null), s.timeZone().orElse(null)).first();
        jdbc.update("UPDATE sensors SET status = ?, next_run_at = ?, updated_at = now() WHERE tenant_id = ? AND id = ?",
                status, Timestamp.from(next), caller.tenantId(), id);
        return show(caller.tenantId(), id);
    }

    /** Deletes the sensor with its results and dashboard memberships, and revokes its service grant. */
    public void delete(Caller caller, UUID id) {
        Sensor s = show(caller.tenantId(), id);
        s.grantId().ifPresent(g -> grants.revoke(caller.tenantId(), g));
        List<Runnable> after = deletionListeners.stream().map(l -> l.deleting(caller.tenantId(), id)).toList();
        jdbc.update("DELETE FROM sensors WHERE tenant_id = ? AND id = ?", caller.tenantId(), id);
        for (Runnable r : after) {
            try {
                r.run();
            } catch (RuntimeException e) {
                System.getLogger(Sensors.class.getName()).log(System.Logger.Level.ERROR,
                        "a listener of sensor " + id + "'s deletion failed", e);
            }
        }
    }

    /**
     * A sensor's results, newest first: {@code cursor} is the {@code next_cursor} of the page before;
     * {@code from}/{@code to} bound evaluated_at (RFC 3339, inclusive); {@code state} filters.
     */
    public ResultPage results(UUID tenant, UUID id, Optional<String> cursor, Optional<String> from, Optional<String> to,
                              int limit, Optional<String> state) {
        show(tenant, id);
        Paging page = PAGE.checked(limit, 0);
        Long after = cursor.map(c -> {
            try {
                long v = Long.parseLong(c);
                if (v < 1) {
                    throw new NumberFormatException();
                }
                return v;
            } catch (NumberFormatException e) {
                throw CommonErrors.INVALID_CURSOR.error("cursor must be the next_cursor of an earlier page, got '" + c + "'",
                        Map.of("field", "cursor"));
            }
        }).orElse(null);
        Instant fromAt = from.map(f -> time(f, "from")).orElse(null);
        Instant toAt = to.map(t -> time(t, "to")).orElse(null);
        if (fromAt != null && toAt != null && fromAt.isAfter(toAt)) {
            throw CommonErrors.INVALID_TIME.error("from is after to", Map.of("field", "from"));
        }
        state.ifPresent(s -> {
            if (!Assertion.STATES.contains(s)) {
                throw CommonErrors.INVALID_QUERY.error("state must be one of ok, degraded, critical, unknown, skip, got '"
                        + s + "'", Map.of("field", "state"));
            }
        });
        List<SensorResult> rows = jdbc.query("""
                SELECT * FROM sensor_results WHERE sensor_id = ? AND tenant_id = ? AND (?::bigint IS NULL OR id < ?)
                   AND (?::timestamptz IS NULL OR evaluated_at >= ?) AND (?::timestamptz IS NULL OR evaluated_at <= ?)
                   AND (?::text IS NULL OR state = ?)
                 ORDER BY id DESC LIMIT ?""", Sensors::resultRow, id, tenant, after, after, ts(fromAt), ts(fromAt),
                ts(toAt), ts(toAt), state.orElse(null), state.orElse(null), page.limit() + 1);
        Optional<String> next = Optional.empty();
        if (rows.size() > page.limit()) {
            rows = rows.subList(0, page.limit());
            next = Optional.of(Long.toString(rows.getLast().id()));
        }
        return new ResultPage(List.copyOf(rows), next);
    }

    private static Timestamp ts(Instant at) {
        return at == null ? null : Timestamp.from(at);
    }

    private static Instant time(String text, String field) {
        try {
            return Times.inRange(OffsetDateTime.parse(text).toInstant(), field, CommonErrors.INVALID_TIME.code());
        } catch (DateTimeParseException e) {
            throw CommonErrors.INVALID_TIME.error(field + " must be an RFC 3339 time such as 2026-01-31T12:00:00Z, got '"
                    + text + "'", Map.of("field", field));
        }
    }

    /** How often a sensor runs, checked: an interval of 5..86,400 s, or a six-field cron no more often than that. */
    record Cadence(String kind, Optional<Integer> interval, Optional<String> cron, Optional<String> zone, Instant first) {
    }

    static Cadence cadence(Integer interval, String cron, String zone) {
        if ((interval == null) == (cron == null)) {
            throw SensorErrors.INVALID_SENSOR.error("give exactly one cadence: interval_seconds (" + MIN_INTERVAL_SECONDS
                    + ".." + MAX_INTERVAL_SECONDS + ") or cron (six fields with seconds)", Map.of("field", "interval_seconds"));
        }
        if (interval != null) {
            if (zone != null) {
                throw SensorErrors.INVALID_SENSOR.error("time_zone belongs to a cron cadence", Map.of("field", "time_zone"));
            }
            if (interval < MIN_INTERVAL_SECONDS || interval > MAX_INTERVAL_SECONDS) {
                throw SensorErrors.INVALID_SENSOR.error("interval_seconds must be " + MIN_INTERVAL_SECONDS + ".."
                        + MAX_INTERVAL_SECONDS + ", got " + interval, Map.of("field", "interval_seconds"));
            }
            return new Cadence("interval", Optional.of(interval), Optional.empty(), Optional.empty(), Instant.now());
        }
        String z = zone == null ? "UTC" : zone;
        CronSchedule schedule = schedule(cron, z);
        Instant first = next(schedule, Instant.now());
        Instant second = first.equals(CronSchedule.NEVER) ? CronSchedule.NEVER : next(schedule, first);
        if (second.equals(CronSchedule.NEVER)) {
            throw SensorErrors.INVALID_SENSOR.error("cron '" + cron + "' never fires (or fires once)", Map.of("field", "cron"));
        }
        Instant at = first;
        for (int i = 0; i < 500; i++) { // the shortest gap over the next firings (0,2 * * * * * hides in one minute)
            Instant following = next(schedule, at);
            if (following.equals(CronSchedule.NEVER)) {
                break;
            }
            if (Duration.between(at, following).toSeconds() < MIN_INTERVAL_SECONDS) {
                throw SensorErrors.INVALID_SENSOR.error("cron '" + cron + "' fires more often than every "
                        + MIN_INTERVAL_SECONDS + " s", Map.of("field", "cron"));
            }
            at = following;
        }
        return new Cadence("cron", Optional.empty(), Optional.of(cron.trim()), Optional.of(z), first);
    }

    static CronSchedule schedule(String cron, String zone) {
        if (cron.isBlank() || cron.length() > 200) {
            throw notCron(cron, "empty or longer than 200 characters");
        }
        ZoneId zoneId = Times.zone(zone, SensorErrors.INVALID_SENSOR);
        try {
            CronSchedule s = new CronSchedule(cron.trim(), zoneId, CronStyle.SPRING);
            if (s.isDisabled()) {
                throw notCron(cron, "'-' disables a schedule; pause the sensor instead");
            }
            return s;
        } catch (dev.backplane.kernel.errors.DomainException e) {
            throw e;
        } catch (RuntimeException e) {
            throw notCron(cron, e.getMessage());
        }
    }

    /** The first firing strictly after {@code after}, or {@code NEVER}. */
    static Instant next(CronSchedule schedule, Instant after) {
        try {
            return schedule.getInitialExecutionTime(after);
        } catch (RuntimeException e) {
            throw notCron(schedule.getPattern(), e.getMessage());
        }
    }

    private static dev.backplane.kernel.errors.DomainException notCron(String cron, String why) {
        return SensorErrors.INVALID_SENSOR.error("cron '" + cron + "' is not a six-field cron expression (second minute "
                + "hour day-of-month month day-of-week): " + why, Map.of("field", "cron"));
    }

    private static String name(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw SensorErrors.INVALID_SENSOR.error("name must be 1..128 letters, digits, '.', '_' or '-' (starting with "
                    + "a letter or digit)", Map.of("field", "name"));
        }
        return name;
    }

    private static String status(String status) {
        if (!STATUSES.contains(status)) {
            throw SensorErrors.INVALID_SENSOR.error("status must be active or paused", Map.of("field", "status"));
        }
        return status;
    }

    private static Map<String, Object> params(Map<String, Object> params) {
        Map<String, Object> p = params == null ? Map.of() : params;
        if (JsonMapping.write(p).length() > MAX_PARAMS_CHARS) {
            throw SensorErrors.INVALID_SENSOR.error("params are larger than " + MAX_PARAMS_CHARS + " characters of JSON",
                    Map.of("field", "params"));
        }
        return new LinkedHashMap<>(p);
    }

    /** Params that the operation's schema refuses are refused now ({@code invalid_params}), not at every run. */
    private static void checkParams(String schema, Map<String, Object> params) {
        List<String> problems = JsonSchemas.problems(JsonSchemas.compile(JsonMapping.tree(schema,
                "the operation's params schema")), JsonMapping.mapper().valueToTree(params));
        if (!problems.isEmpty()) {
            throw SensorErrors.INVALID_PARAMS.error("params do not match the operation's schema: "
                    + String.join("; ", problems), Map.of("field", "params", "validation_errors", problems));
        }
    }

    private static void require(String value, String field) {
        if (value == null || value.isBlank()) {
            throw SensorErrors.INVALID_SENSOR.error(field + " is required", Map.of("field", field));
        }
    }

    private static dev.backplane.kernel.errors.DomainException exists(String name) {
        return SensorErrors.SENSOR_EXISTS.error("a sensor named '" + name + "' exists in this tenant", Map.of("field", "name"));
    }

    static Sensor row(ResultSet rs) throws SQLException {
        Map<String, Object> params;
        JsonNode assertion;
        try {
            params = JsonMapping.mapper().readValue(rs.getString("params"), MAP);
            assertion = JsonMapping.mapper().readTree(rs.getString("assertion"));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new SQLException("sensor params or assertion is not JSON", e);
        }
        int interval = rs.getInt("interval_seconds");
        Optional<Integer> intervalSeconds = rs.wasNull() ? Optional.empty() : Optional.of(interval);
        return new Sensor(rs.getObject("id", UUID.class), rs.getString("name"), rs.getString("status"),
                rs.getString("cadence_kind"), intervalSeconds, Optional.ofNullable(rs.getString("cron")),
                Optional.ofNullable(rs.getString("time_zone")), rs.getString("connector_id"), rs.getString("op_id"),
                rs.getString("target"), rs.getObject("target_id", UUID.class), params, assertion,
                rs.getString("principal"), Optional.ofNullable(rs.getObject("grant_id", UUID.class)),
                rs.getTimestamp("next_run_at").toInstant(), Optional.ofNullable(rs.getString("last_state")).orElse("unknown"),
                Optional.ofNullable(rs.getTimestamp("last_evaluated_at")).map(Timestamp::toInstant),
                rs.getString("created_by"), rs.getTimestamp("created_at").toInstant(),
                rs.getTimestamp("updated_at").toInstant());
    }

    private static SensorResult resultRow(ResultSet rs) throws SQLException {
        return new SensorResult(rs.getLong("id"), rs.getObject("sensor_id", UUID.class),
                rs.getTimestamp("due_at").toInstant(), rs.getTimestamp("evaluated_at").toInstant(), rs.getString("state"), rs.getString("detail"),
                rs.getString("call_status"), Optional.ofNullable(rs.getObject("audit_id", UUID.class)),
                rs.getInt("duration_ms"));
    }
}
