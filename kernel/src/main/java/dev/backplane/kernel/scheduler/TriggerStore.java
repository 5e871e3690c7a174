package dev.backplane.kernel.scheduler;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.kernel.util.Paging;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * SQL for the scheduler's triggers ({@code scheduler_triggers}) and their firings ({@code scheduler_trigger_fires}):
 * every statement of a request is scoped by tenant; the firing statements run on the caller's transaction.
 */
final class TriggerStore {

    /** A cron trigger claimed because it is due. */
    record DueCron(UUID id, UUID tenant, String agent, String inputs, String cron, String zone, Instant at) {
    }

    /** A trigger as the automations view lists it: its description, state and latest firing. */
    record AutomationRow(UUID id, String agent, String description, String status, Optional<Timestamp> firedAt,
                         Optional<UUID> handle, String kind) {
    }

    private final Jdbc jdbc;

    TriggerStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    void insertEvent(UUID id, UUID tenant, String agent, JsonNode filter, List<String> pairs, String anchor,
                     String inputs, String createdBy) {
        jdbc.update("""
                INSERT INTO scheduler_triggers (id, tenant_id, kind, agent_name, event_filter, filter_pairs, anchor, inputs,
                                                created_by)
                VALUES (?, ?, 'event', ?, ?, ?, ?, ?, ?)""", id, tenant, agent, Jdbc.jsonb(filter),
                pairs.toArray(String[]::new), anchor, inputs, createdBy);
    }

    void insertCron(UUID id, UUID tenant, String agent, String inputs, String createdBy, String cron, String zone,
                    Instant first) {
        jdbc.update("""
                INSERT INTO scheduler_triggers (id, tenant_id, kind, agent_name, event_filter, filter_pairs, anchor, inputs,
                                                created_by, cron, time_zone, next_fire_at)
                VALUES (?, ?, 'cron', ?, '{}'::jsonb, '{}', '-', ?, ?, ?, ?, ?)""", id, tenant, agent, inputs, createdBy,
                cron, zone, Timestamp.from(first));
    }

    /** The tenant's triggers that fired for {@code eventId}, with the run each started, oldest first. */
    List<Triggers.Fire> firesOf(UUID tenant, UUID eventId) {
        return jdbc.query("""
                SELECT f.trigger_id, t.agent_name, f.run_handle, f.fired_at FROM scheduler_trigger_fires f
                  JOIN scheduler_triggers t ON t.id = f.trigger_id
                 WHERE f.event_id = ? AND t.tenant_id = ? ORDER BY f.fired_at""",
                rs -> new Triggers.Fire(rs.getObject(1, UUID.class), rs.getString(2), rs.getObject(3, UUID.class),
                        rs.getTimestamp(4).toInstant()), eventId, tenant);
    }

    List<Trigger> list(UUID tenant, Paging page) {
        return jdbc.query("SELECT * FROM scheduler_triggers WHERE tenant_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?",
                TriggerStore::row, tenant, page.limit(), page.offset());
    }

    Optional<Trigger> find(UUID tenant, UUID id) {
        return jdbc.queryOne("SELECT * FROM scheduler_triggers WHERE tenant_id = ? AND id = ?", TriggerStore::row,
                tenant, id);
    }

    /** Sets the status, and the next firing when {@code next} is given. */
    void setStatus(UUID tenant, UUID id, String status, Instant next) {
        jdbc.update("UPDATE scheduler_triggers SET status = ?, next_fire_at = coalesce(?, next_fire_at), updated_at = now() "
                + "WHERE tenant_id = ? AND id = ?", status, next == null ? null : Timestamp.from(next), tenant, id);
    }

    /** Whether a trigger was deleted. */
    boolean delete(UUID tenant, UUID id) {
        return jdbc.update("DELETE FROM scheduler_triggers WHERE tenant_id = ? AND id = ?", tenant, id) > 0;
    }

    /** How many of the tenant's triggers have each of {@code pairs} in their filter (pairs none has are absent). */
    Map<String, Long> pairCounts(UUID tenant, List<String> pairs) {
        Map<String, Long> counts = new HashMap<>();
        jdbc.query("""
                SELECT p, count(*) FROM scheduler_triggers, unnest(filter_pairs) p
                WHERE tenant_id = ? AND p = ANY(?::text[]) GROUP BY p""", rs -> counts.put(rs.getString(1), rs.getLong(2)),
                tenant, pairs.toArray(String[]::new));
        return counts;
    }

    /** The active event triggers anchored on one of {@code anchors} whose filter the payload contains. */
    static List<Trigger> matching(Connection c, UUID tenant, List<String> anchors, JsonNode payload) throws SQLException {
        return Jdbc.query(c, """
                SELECT * FROM scheduler_triggers
                WHERE tenant_id = ? AND status = 'active' AND anchor = ANY(?::text[]) AND kind = 'event'
                  AND ?::jsonb @> event_filter
                ORDER BY created_at, id""", TriggerStore::row, tenant, anchors.toArray(String[]::new),
                JsonMapping.write(payload));
    }

    <T> T inTransaction(Jdbc.TxBody<T> body) {
        return jdbc.inTransaction(body);
    }

    /** Up to {@code batch} due active cron triggers, earliest first, locked (those another replica holds skipped). */
    static List<DueCron> claimDueCron(Connection c, int batch) throws SQLException {
        return Jdbc.query(c, """
                SELECT id, tenant_id, agent_name, inputs, cron, time_zone, next_fire_at FROM scheduler_triggers
                WHERE kind = 'cron' AND status = 'active' AND next_fire_at <= now()
                ORDER BY next_fire_at LIMIT ? FOR UPDATE SKIP LOCKED""", rs -> new DueCron(rs.getObject(1, UUID.class),
                rs.getObject(2, UUID.class), rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6),
                rs.getTimestamp(7).toInstant()), batch);
    }

    /**
     * Records a firing of {@code trigger} for {@code event} (an event's id, or a cron firing's name-based id); false
     * when it was recorded before, and then nothing may be enqueued. {@code scheduledFor} is null for an event.
     */
    static boolean recordFire(Connection c, UUID trigger, UUID event, UUID handle, Instant scheduledFor)
            throws SQLException {
        if (scheduledFor == null) {
            return Jdbc.update(c, "INSERT INTO scheduler_trigger_fires (trigger_id, event_id, run_handle) VALUES (?, ?, ?) "
                    + "ON CONFLICT DO NOTHING", trigger, event, handle) == 1;
        }
        return Jdbc.update(c, "INSERT INTO scheduler_trigger_fires (trigger_id, event_id, run_handle, scheduled_for) "
                + "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", trigger, event, handle, Timestamp.from(scheduledFor)) == 1;
    }

    static void setNextFire(Connection c, UUID trigger, Instant next) throws SQLException {
        Jdbc.update(c, "UPDATE scheduler_triggers SET next_fire_at = ? WHERE id = ?", Timestamp.from(next), trigger);
    }

    static void pause(Connection c, UUID trigger) throws SQLException {
        Jdbc.update(c, "UPDATE scheduler_triggers SET status = 'paused', updated_at = now() WHERE id = ?", trigger);
    }

    /** The tenant's triggers, oldest first, each with its latest firing. */
    List<AutomationRow> automationRows(UUID tenant, int limit) {
        return jdbc.query("""
                SELECT t.id, t.agent_name, CASE WHEN t.kind = 'cron' THEN 'cron ' || t.cron || ' (' || t.time_zone
                       || '), next ' || coalesce(to_char(t.next_fire_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                       '-') ELSE 'event contains ' || t.event_filter::text END, t.status, f.fired_at, f.run_handle,
                       t.kind
                  FROM scheduler_triggers t
                  LEFT JOIN LATERAL (SELECT fired_at, run_handle FROM scheduler_trigger_fires
                                      WHERE trigger_id = t.id ORDER BY fired_at DESC LIMIT 1) f ON true
                 WHERE t.tenant_id = ?
                 ORDER BY t.created_at, t.id LIMIT ?""", rs -> new AutomationRow(rs.getObject(1, UUID.class),
                rs.getString(2), rs.getString(3), rs.getString(4), Optional.ofNullable(rs.getTimestamp(5)),
                Optional.ofNullable(rs.getObject(6, UUID.class)), rs.getString(7)), tenant, limit);
    }

    private static Trigger row(ResultSet rs) throws SQLException {
        JsonNode filter;
        try {
            filter = JsonMapping.mapper().readTree(rs.getString("event_filter"));
        } catch (JsonProcessingException e) {
            throw new SQLException("event_filter is not JSON", e);
        }
        boolean cron = rs.getString("kind").equals("cron");
        Timestamp next = rs.getTimestamp("next_fire_at");
        return new Trigger(rs.getObject("id", UUID.class), rs.getString("kind"), rs.getString("agent_name"),
                cron ? null : filter, Optional.ofNullable(rs.getString("inputs")), rs.getString("status"),
                rs.getString("created_by"), rs.getTimestamp("created_at").toInstant(),
                rs.getTimestamp("updated_at").toInstant(), Optional.ofNullable(rs.getString("cron")),
                Optional.ofNullable(rs.getString("time_zone")), Optional.ofNullable(next).map(Timestamp::toInstant));
    }
}
