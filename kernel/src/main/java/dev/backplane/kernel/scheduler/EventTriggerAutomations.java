package dev.backplane.kernel.scheduler;

import dev.backplane.kernel.agents.AgentRuns;
import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Timestamp;
import java.util.List;
import java.util.Map;
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

    private final TriggerStore store;
    private final AgentRuns runs;

    public EventTriggerAutomations(Jdbc jdbc, AgentRuns runs) {
        this.store = new TriggerStore(jdbc);
        this.runs = runs;
    }

    @Override
    public List<Automation> automations(UUID tenant, int limit) {
        List<TriggerStore.AutomationRow> rows = store.automationRows(tenant, limit);
        Set<UUID> handles = rows.stream().flatMap(r -> r.handle().stream()).collect(Collectors.toSet());
        Map<UUID, String> statuses = runs.statuses(tenant, handles);
        return rows.stream().map(r -> new Automation(r.kind() + "-trigger", r.id().toString(), describe(r.description()), r.status(),
                "agent:" + r.agent(), r.firedAt().map(Timestamp::toInstant), r.handle().map(UUID::toString),
                r.handle().map(statuses::get))).toList();
    }

    private static String describe(String filter) {
        String text = filter;
        return text.length() <= DESCRIPTION_MAX ? text : text.substring(0, DESCRIPTION_MAX - 1) + "…";
    }
}
