package dev.backplane.kernel.scheduler;

import dev.backplane.kernel.agents.AgentRuns;
import dev.backplane.kernel.persistence.Jdbc;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Fires cron triggers (a periodic job on every replica): the due triggers are claimed with
 * {@code FOR UPDATE SKIP LOCKED}, each fires one run for its scheduled time — a fire row keyed by a
 * name-based uuid of (trigger, scheduled time) and the enqueued run, in one transaction — and its next
 * firing is set from its schedule. Times missed while no replica ran (or while paused) are not caught
 * up one by one: a trigger late by several periods fires once, for the latest due time.
 */
public final class CronFiring {

    private static final int BATCH = 100;

    private final Jdbc jdbc;
    private final AgentRuns runs;

    public CronFiring(Jdbc jdbc, AgentRuns runs) {
        this.jdbc = jdbc;
        this.runs = runs;
    }

    /** Fires what is due now; returns how many runs it enqueued. */
    public int fireDue() {
        return jdbc.inTransaction(c -> {
            record Due(UUID id, UUID tenant, String agent, String inputs, String cron, String zone, Instant at) {
            }
            List<Due> due = Jdbc.query(c, """
                    SELECT id, tenant_id, agent_name, inputs, cron, time_zone, next_fire_at FROM scheduler_triggers
                    WHERE kind = 'cron' AND status = 'active' AND next_fire_at <= now()
                    ORDER BY next_fire_at LIMIT ? FOR UPDATE SKIP LOCKED""", rs -> new Due(rs.getObject(1, UUID.class),
                    rs.getObject(2, UUID.class), rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6),
                    rs.getTimestamp(7).toInstant()), BATCH);
            int fired = 0;
            Instant now = Instant.now();
            for (Due d : due) {
                var schedule = Triggers.schedule(d.cron(), d.zone());
                // the latest scheduled time that is due: a trigger late by several periods fires once
                Instant at = d.at();
                Instant next = schedule.getInitialExecutionTime(at);
                while (!next.isAfter(now)) {
                    at = next;
                    next = schedule.getInitialExecutionTime(at);
                }
                UUID firing = UUID.nameUUIDFromBytes(("cron:" + d.id() + "@" + at).getBytes(StandardCharsets.UTF_8));
                UUID handle = UUID.randomUUID();
                if (Jdbc.update(c, "INSERT INTO scheduler_trigger_fires (trigger_id, event_id, run_handle, scheduled_for) "
                        + "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", d.id(), firing, handle, Timestamp.from(at)) == 1) {
                    runs.enqueue(c, handle, d.tenant(), d.agent(), "svc-trigger:" + d.id(), d.inputs()
                            + "\n\n(This is a scheduled run of cron trigger " + d.id() + " for " + at + ".)", d.id(), null);
                    fired++;
                }
                Jdbc.update(c, "UPDATE scheduler_triggers SET next_fire_at = ? WHERE id = ?", Timestamp.from(next), d.id());
            }
            return fired;
        });
    }
}
