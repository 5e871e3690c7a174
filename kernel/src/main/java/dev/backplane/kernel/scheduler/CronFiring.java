package dev.backplane.kernel.scheduler;

import dev.backplane.kernel.agents.AgentRuns;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.PeriodicJob;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Fires cron triggers (a db-scheduler job, so one replica at a time runs it, every few seconds): the
 * due triggers are claimed with {@code FOR UPDATE SKIP LOCKED}, each fires one run for its scheduled
 * time — a fire row keyed by a name-based uuid of (trigger, scheduled time) and the enqueued run, in one
 * transaction — and its next firing is set from its schedule. Times missed while no replica ran (or
 * while paused) are not caught up one by one: a trigger late by several periods fires once, for the
 * latest due time. A trigger whose schedule can no longer be computed (a time zone gone from the JDK's
 * tzdata) is paused with the reason in the log instead of holding up the others.
 */
public final class CronFiring {

    private static final System.Logger LOG = System.getLogger(CronFiring.class.getName());
    private static final int BATCH = 100;
    private static final int MAX_BATCHES = 50;
    private static final int MAX_CATCH_UP_STEPS = 100_000;

    private final TriggerStore store;
    private final AgentRuns runs;

    public CronFiring(Jdbc jdbc, AgentRuns runs) {
        this.store = new TriggerStore(jdbc);
        this.runs = runs;
    }

    /** Fires what is due now, a batch at a time while batches come back full; returns how many runs it enqueued. */
    public int fireDue() {
        int fired = 0;
        for (int i = 0; i < MAX_BATCHES; i++) {
            int[] claimed = {0};
            fired += store.inTransaction(c -> {
                List<TriggerStore.DueCron> due = TriggerStore.claimDueCron(c, BATCH);
                claimed[0] = due.size();
                int n = 0;
                for (TriggerStore.DueCron d : due) {
                    n += fireOne(c, d);
                }
                return n;
            });
            if (claimed[0] < BATCH) {
                break;
            }
        }
        return fired;
    }

    /** One trigger, behind a savepoint: its failure pauses it and leaves the batch's other firings standing. */
    private int fireOne(Connection c, TriggerStore.DueCron d) throws SQLException {
        Savepoint before = c.setSavepoint();
        try {
            var schedule = Triggers.schedule(d.cron(), d.zone());
            Instant now = Instant.now();
            Instant at = d.at();
            Instant next = Triggers.next(schedule, at);
            for (int steps = 0; !next.isAfter(now) && steps < MAX_CATCH_UP_STEPS; steps++) {
                if (!next.isAfter(at)) {
                    throw new IllegalStateException("the schedule does not advance after " + at);
                }
                at = next; // a trigger late by several periods fires once, for the latest due time
                next = Triggers.next(schedule, at);
            }
            if (!next.isAfter(now)) {
                next = Triggers.next(schedule, now);
            }
            UUID firing = UUID.nameUUIDFromBytes(("cron:" + d.id() + "@" + at).getBytes(StandardCharsets.UTF_8));
            UUID handle = UUID.randomUUID();
            int fired = 0;
            if (TriggerStore.recordFire(c, d.id(), firing, handle, at)) {
                runs.enqueue(c, handle, d.tenant(), d.agent(), "svc-trigger:" + d.id(), d.inputs()
                        + "\n\n(This is a scheduled run of cron trigger " + d.id() + " for " + at + ".)", d.id(), null);
                fired = 1;
            }
            TriggerStore.setNextFire(c, d.id(), next);
            c.releaseSavepoint(before);
            return fired;
        } catch (RuntimeException | SQLException e) {
            c.rollback(before);
            LOG.log(Level.ERROR, "cron trigger " + d.id() + " (tenant " + d.tenant() + ", cron '" + d.cron() + "' in "
                    + d.zone() + ") could not fire and is paused: " + e.getMessage());
            TriggerStore.pause(c, d.id());
            return 0;
        }
    }

    /** Firing due cron triggers (polled every second). */
    public List<PeriodicJob> periodicJobs() {
        return List.of(new PeriodicJob("cron-triggers", Duration.ofSeconds(1), this::fireDue));
    }
}
