package dev.backplane.kernel.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.kagkarlsson.scheduler.task.schedule.CronSchedule;
import dev.backplane.kernel.agents.AgentDefinitions;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.CronSchedules;
import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.kernel.util.Paging;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Scheduler triggers of a tenant, kind {@code event} and kind {@code cron} (fired by {@link CronFiring}):
 * create, list, show, pause, resume, delete,
 * and the match of an event against the active ones. Matching is PostgreSQL's JSON containment
 * ({@code payload @> filter}: every key and value of the filter in the payload, nested objects
 * recursively, arrays by containment). Each trigger is anchored on one of its filter's top-level pairs
 * (the rarest among the tenant's triggers when it was created); an event looks up only the triggers
 * anchored on one of its own pairs, so matching does not scan every trigger of the tenant.
 */
public final class Triggers {

    /** The body of create. */
    public record Write(String kind, String agentDefinition, JsonNode eventFilter, String inputs, String cron,
                        String timeZone) {
    }

    static final int MAX_FILTER_CHARS = 16_384;
    static final int MAX_INPUTS_CHARS = 65_536;
    public static final Paging.Size PAGE = new Paging.Size(100, 500);

    private final TriggerStore store;
    private final AgentDefinitions agents;
    private final Duration cronMinInterval;

    /** @param cronMinInterval the shortest gap a cron trigger's schedule may have between two firings */
    public Triggers(Jdbc jdbc, AgentDefinitions agents, Duration cronMinInterval) {
        this.store = new TriggerStore(jdbc);
        this.agents = agents;
        this.cronMinInterval = cronMinInterval;
    }

    public Trigger create(Caller caller, Write w) {
        if (w.kind() == null) {
            throw SchedulerErrors.INVALID_TRIGGER.error("kind is required (event or cron)", Map.of("field", "kind"));
        }
        if (!w.kind().equals("event") && !w.kind().equals("cron")) {
            throw SchedulerErrors.UNSUPPORTED_TRIGGER_KIND.error("kind '" + w.kind() + "' is not supported: event or cron",
                    Map.of("field", "kind"));
        }
        if (w.agentDefinition() == null) {
            throw SchedulerErrors.INVALID_TRIGGER.error("agent_definition is required", Map.of("field", "agent_definition"));
        }
        try {
            agents.show(caller.tenantId(), w.agentDefinition());
        } catch (DomainException notFound) {
            throw SchedulerErrors.UNKNOWN_AGENT.error("no agent definition '" + w.agentDefinition() + "' in this tenant "
                    + "(svc agent list)", Map.of("field", "agent_definition"));
        }
        if (w.kind().equals("cron")) {
            return createCron(caller, w);
        }
        if (w.cron() != null || w.timeZone() != null) {
            throw SchedulerErrors.INVALID_TRIGGER.error("cron and time_zone belong to kind cron", Map.of("field", "cron"));
        }
        JsonNode filter = w.eventFilter() == null ? JsonMapping.mapper().createObjectNode() : w.eventFilter();
        if (!filter.isObject()) {
            throw SchedulerErrors.INVALID_TRIGGER.error("event_filter must be a JSON object ({} matches every event of "
                    + "the tenant)", Map.of("field", "event_filter"));
        }
        if (filter.toString().length() > MAX_FILTER_CHARS) {
            throw SchedulerErrors.INVALID_TRIGGER.error("event_filter is larger than " + MAX_FILTER_CHARS + " characters",
                    Map.of("field", "event_filter"));
        }
        if (w.inputs() != null && (w.inputs().isBlank() || w.inputs().length() > MAX_INPUTS_CHARS)) {
            throw SchedulerErrors.INVALID_TRIGGER.error("inputs must be 1.." + MAX_INPUTS_CHARS + " characters",
                    Map.of("field", "inputs"));
        }
        UUID id = UUID.randomUUID();
        List<String> pairs = pairs(filter);
        store.insertEvent(id, caller.tenantId(), w.agentDefinition(), filter, pairs, anchor(caller.tenantId(), pairs),
                w.inputs(), caller.sub());
        return show(caller.tenantId(), id);
    }

    /** A cron trigger: its schedule is checked (pattern, time zone, the minimum interval) and its first firing set. */
    private Trigger createCron(Caller caller, Write w) {
        if (w.eventFilter() != null) {
            throw SchedulerErrors.INVALID_TRIGGER.error("a cron trigger has no event_filter (it fires on its schedule)",
                    Map.of("field", "event_filter"));
        }
        if (w.inputs() == null || w.inputs().isBlank() || w.inputs().length() > MAX_INPUTS_CHARS) {
            throw SchedulerErrors.INVALID_TRIGGER.error("inputs (the run's prompt, 1.." + MAX_INPUTS_CHARS + " characters) "
                    + "is required for a cron trigger: there is no event to make one from", Map.of("field", "inputs"));
        }
        String zone = w.timeZone() == null ? "UTC" : w.timeZone();
        CronSchedule schedule = schedule(w.cron(), zone);
        Instant first = next(schedule, Instant.now());
        Duration shortest = shortestGap(schedule, first);
        if (first.equals(CronSchedule.NEVER) || shortest == null) {
            throw SchedulerErrors.INVALID_TRIGGER.error("cron '" + w.cron() + "' never fires (or fires once)",
                    Map.of("field", "cron"));
        }
        if (shortest.compareTo(cronMinInterval) < 0) {
            throw SchedulerErrors.INVALID_TRIGGER.error("cron '" + w.cron() + "' fires as often as every "
                    + shortest.toSeconds() + " s; the shortest allowed interval is " + cronMinInterval.toSeconds()
                    + " s (setting scheduler.cron-min-interval-seconds)", Map.of("field", "cron"));
        }
        UUID id = UUID.randomUUID();
        store.insertCron(id, caller.tenantId(), w.agentDefinition(), w.inputs(), caller.sub(), w.cron().trim(), zone,
                first);
        return show(caller.tenantId(), id);
    }

    /** A six-field cron with seconds (Spring style: second minute hour day-of-month month day-of-week) in a zone. */
    static CronSchedule schedule(String cron, String zone) {
        if (cron == null || cron.isBlank() || cron.length() > CronSchedules.MAX_CHARS) {
            throw SchedulerErrors.INVALID_TRIGGER.error("cron (six fields: second minute hour day-of-month month "
                    + "day-of-week, e.g. '0 */15 * * * *') is required", Map.of("field", "cron"));
        }
        return CronSchedules.parse(cron, zone, SchedulerErrors.INVALID_TRIGGER, "trigger");
    }

    /** The shortest gap between firings from {@code first} on (over up to 1,000 firings or a year); null: at most one. */
    static Duration shortestGap(CronSchedule schedule, Instant first) {
        return CronSchedules.shortestGap(schedule, first, 1000, SchedulerErrors.INVALID_TRIGGER);
    }

    /** The first firing strictly after {@code after}, or {@code NEVER}; a schedule that cannot say is a bad cron. */
    static Instant next(CronSchedule schedule, Instant after) {
        return CronSchedules.next(schedule, after, SchedulerErrors.INVALID_TRIGGER);
    }

    /** A trigger's firing for one event: the trigger, its agent, the run it started and when. */
    public record Fire(UUID triggerId, String agentName, UUID runHandle, Instant firedAt) {
    }

    /** Which of the tenant's triggers fired for event {@code eventId}, each with the run it started. */
    public List<Fire> firesOf(UUID tenant, UUID eventId) {
        return store.firesOf(tenant, eventId);
    }

    public List<Trigger> list(UUID tenant, int limit, int offset) {
        Paging page = PAGE.checked(limit, offset);
        return store.list(tenant, page);
    }

    public Trigger show(UUID tenant, UUID id) {
        return store.find(tenant, id).orElseThrow(() -> SchedulerErrors.TRIGGER_NOT_FOUND.error("no trigger " + id + " in this tenant"));
    }

    public Trigger setStatus(Caller caller, UUID id, String status) {
        Trigger t = show(caller.tenantId(), id);
        // a resumed cron trigger fires at its next scheduled time from now, not for the times it was paused through
        Instant next = t.cron().isPresent() && status.equals("active") && !t.status().equals("active")
                ? next(schedule(t.cron().get(), t.timeZone().orElse("UTC")), Instant.now()) : null;
        store.setStatus(caller.tenantId(), id, status, next);
        return show(caller.tenantId(), id);
    }

    public void delete(Caller caller, UUID id) {
        if (!store.delete(caller.tenantId(), id)) {
            show(caller.tenantId(), id);
        }
    }

    /** The active event triggers of the tenant whose filter the payload contains, on the caller's transaction. */
    List<Trigger> matching(Connection c, UUID tenant, JsonNode payload) throws SQLException {
        List<String> keys = new ArrayList<>(pairs(payload));
        keys.add(ANY);
        return TriggerStore.matching(c, tenant, keys, payload);
    }

    /** The anchor of a trigger with these pairs: the one fewest of the tenant's triggers have, or {@code *}. */
    private String anchor(UUID tenant, List<String> pairs) {
        if (pairs.isEmpty()) {
            return ANY;
        }
        Map<String, Long> counts = store.pairCounts(tenant, pairs);
        return pairs.stream().min(Comparator.comparingLong((String p) -> counts.getOrDefault(p, 0L))
                .thenComparing(Comparator.naturalOrder())).orElse(ANY);
    }

    static final String ANY = "*";

    /**
     * The top-level string, boolean and null members of a JSON object, as {@code key=<json value>}
     * (numbers are left to the containment test: 1 and 1.0 are equal there but not as text).
     */
    static List<String> pairs(JsonNode object) {
        List<String> out = new ArrayList<>();
        object.properties().forEach(e -> {
            if (e.getValue().isTextual() || e.getValue().isBoolean() || e.getValue().isNull()) {
                out.add(e.getKey() + "=" + e.getValue());
            }
        });
        return out;
    }
}
