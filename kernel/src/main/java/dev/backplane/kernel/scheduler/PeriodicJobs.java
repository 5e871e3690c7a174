package dev.backplane.kernel.scheduler;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import dev.backplane.kernel.persistence.PeriodicJob;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;

/**
 * Periodic work on db-scheduler (PostgreSQL-backed, so several replicas never run a job twice): what the
 * capabilities offer as {@link PeriodicJob}s (approval expiry, sweeps, reapers, due cron triggers and sensors). Polled every
 * second, so a job with a one-second delay (cron triggers, sensors) starts about a second late at most. A job
 * whose replica died while running it is picked up by another after about 40 seconds (missed heartbeats).
 */
public final class PeriodicJobs implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(PeriodicJobs.class.getName());
    private final Scheduler scheduler;

    /** @param jobs what each capability offers (its {@code periodicJobs()}); a name twice is a wiring error */
    public PeriodicJobs(DataSource dataSource, List<PeriodicJob> jobs) {
        if (jobs.stream().map(PeriodicJob::name).distinct().count() != jobs.size()) {
            throw new IllegalArgumentException("two periodic jobs share a name: " + jobs.stream().map(PeriodicJob::name)
                    .toList());
        }
        List<RecurringTask<?>> tasks = jobs.stream().<RecurringTask<?>>map(j -> Tasks.recurring(j.name(),
                FixedDelay.of(j.every())).execute((instance, ctx) -> {
                    int n = j.body().getAsInt();
                    if (n > 0) {
                        LOG.log(Level.INFO, j.name() + ": " + n);
                    }
                })).toList();
        scheduler = Scheduler.create(dataSource)
                .startTasks(tasks)
                .threads(2)
                .pollingInterval(Duration.ofSeconds(1))
                // a job claimed by a replica that died is taken over after 4 missed 10 s heartbeats (~40 s), not
                // db-scheduler's default 6 x 5 min: a reaper a killed kernel was running must not stay blocked for
                // every other replica for half an hour
                .heartbeatInterval(Duration.ofSeconds(10))
                .missedHeartbeatsLimit(4)
                // stopping (a replica shutting down) waits this long for jobs in flight; one still running after it
                // is taken over by another replica when its heartbeats stop
                .shutdownMaxWait(Duration.ofSeconds(10))
                .build();
        scheduler.start();
    }

    @Override
    public void close() {
        scheduler.stop();
    }
}
