package dev.backplane.kernel.scheduler;

import dev.backplane.kernel.agents.AgentRuns;
import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Timestamp;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Scheduler triggers as automations ({@code event-trigger}, {@code cron-trigger}): each with its filter or
 * schedule, state, agent and latest firing — when it fired and
 * the run it started, with that run's status as agent runs report it.
 */
public final class EventTriggerAutomations implements AutomationSource {

    private static final int DESCRIPTION_MAX = 120;

    private final Jdbc jdbc;
    private final AgentRuns runs;

    public EventTriggerAutomations(Jdbc jdbc, AgentRuns runs) {
        this.jdbc = jdbc;
        this.runs = runs;
    }

    private record Row(UUID id, String agent, String filter, String status, Optional<Timestamp> firedAt,
                       Optional<UUID> handle, String kind) {
    }

    @Override
    public List<Automation> automations(UUID tenant, int limit) {
        List<Row> rows = jdbc.query("""
                SELECT t.id, t.agent_name, CASE WHEN t.kind = 'cron' THEN 'cron ' || t.cron || ' (' || t.time_zone
                       || '), next ' || coalesce(to_char(t.next_fire_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                       '-') ELSE 'event contains ' || t.event_filter::text END, t.status, f.fired_at, f.run_handle,
                       t.kind
                  FROM scheduler_triggers t
                  LEFT JOIN LATERAL (SELECT fired_at, run_handle FROM scheduler_trigger_fires
                                      WHERE trigger_id = t.id ORDER BY fired_at DESC LIMIT 1) f ON true
                 WHERE t.tenant_id = ?
                 ORDER BY t.created_at, t.id LIMIT ?""", rs -> new Row(rs.getObject(1, UUID.class), rs.getString(2),
                rs.getString(3), rs.getString(4), Optional.ofNullable(rs.getTimestamp(5)),
                Optional.ofNullable(rs.getObject(6, UUID.class)), rs.getString(7)), tenant, limit);
        Set<UUID> handles = rows.stream().flatMap(r -> r.handle().stream()).collect(Collectors.toSet());
        Map<UUID, String> statuses = runs.statuses(tenant, handles);
        return rows.stream().map(r -> new Automation(r.kind() + "-trigger", r.id().toString(), describe(r.filter()), r.status(),
                "agent:" + r.agent(), r.firedAt().map(Timestamp::toInstant), r.handle().map(UUID::toString),
                r.handle().map(statuses::get))).toList();
    }

    private static String describe(String filter) {
        String text = filter;
        return text.length() <= DESCRIPTION_MAX ? text : text.substring(0, DESCRIPTION_MAX - 1) + "…";
    }
}
