package dev.backplane.kernel.sensors;

import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.dispatch.Dispatcher;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.PeriodicJob;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Runs due sensors (called by a db-scheduler job, so one replica at a time claims): the active sensors due
 * within {@link #LOOKAHEAD} are claimed with {@code FOR UPDATE SKIP LOCKED} and their next run time set
 * in the claiming transaction — so a due time runs once, whichever replica claims it — then each runs
 * on a virtual thread from its due time (at most {@code maxConcurrent} at once) through the dispatch
 * pipeline as the sensor's service principal, and its result row and latest state are written in one
 * transaction. A sensor late by several periods runs
 * once. Results older than the retention are swept. One run (the call, its verdict, its result row) is
 * {@link SensorCall}'s; the SQL is {@link SensorRunStore}'s.
 */
public final class SensorRuns implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(SensorRuns.class.getName());
    private static final int BATCH = 200;
    private static final int MAX_BATCHES = 50;
    /**
     * How far ahead of its due time a sensor is claimed: the job runs about every second or two, so a
     * run claimed early waits on its virtual thread until it is due instead of starting up to two seconds late.
     */
    static final Duration LOOKAHEAD = Duration.ofSeconds(2);
    /**
     * How long past its due time a claimed run holds its sensor (running_until): the sensor is not claimed
     * again until the run records or this lease runs out (a replica that died mid-run).
     */
    static final Duration RUN_LEASE = Duration.ofMinutes(10);

    private final SensorRunStore store;
    private final SensorCall call;
    private final int retentionDays;
    private final Semaphore slots;
    private final ExecutorService runner = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("sensor-run-", 0).factory());

    /**
     * @param retentionDays results older than this many days are swept
     * @param maxConcurrent sensor calls one kernel runs at once
     */
    public SensorRuns(Jdbc jdbc, Dispatcher dispatcher, CatalogService catalog, int retentionDays, int maxConcurrent) {
        this.store = new SensorRunStore(jdbc);
        this.call = new SensorCall(store, dispatcher, catalog);
        this.retentionDays = retentionDays;
        this.slots = new Semaphore(maxConcurrent);
    }

    /** Adds a listener told about each committed state change. */
    public void onStateChange(SensorStateListener listener) {
        call.onStateChange(listener);
    }

    /** A claimed run (package-private for tests). */
    record Due(UUID id, UUID tenant, String connectorId, String opId, String target, String params,
                       String assertion, String principal, Integer interval, String cron, String zone, Instant at) {
    }

    /** Claims what is due now and starts its runs; returns how many it started. */
    public int runDue() {
        int started = 0;
        for (int i = 0; i < MAX_BATCHES; i++) {
            List<Due> due = store.inTransaction(c -> {
                List<Due> claimed = SensorRunStore.claimDue(c, LOOKAHEAD, BATCH);
                for (Due d : claimed) {
                    advance(c, d);
                }
                return claimed;
            });
            for (Due d : due) {
                runner.submit(() -> runGuarded(d));
            }
            started += due.size();
            if (due.size() < BATCH) {
                break;
            }
        }
        return started;
    }

    /**
     * Sets the next run ({@link Cadence#nextAfter}) and holds the sensor in flight for {@link #RUN_LEASE}
     * past its due time; a sensor whose cadence no longer computes is paused instead.
     */
    private static void advance(Connection c, Due d) throws SQLException {
        Instant next;
        try {
            next = Cadence.nextAfter(d.interval(), d.cron(), d.zone(), d.at(), Instant.now());
        } catch (DomainException e) {
            LOG.log(Level.ERROR, "sensor " + d.id() + " (tenant " + d.tenant() + ") has a cadence that no longer "
                    + "computes and is paused: " + e.getMessage());
            SensorRunStore.setStatus(c, d.id(), SensorStatus.PAUSED);
            return;
        }
        SensorRunStore.scheduleNext(c, d.id(), next, d.at().plus(RUN_LEASE));
    }

    private void runGuarded(Due d) {
        try {
            long early = Duration.between(Instant.now(), d.at()).toMillis();
            if (early > 0) {
                Thread.sleep(early);
            }
            slots.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            release(d);
            return;
        }
        try {
            // checked after the slot, every time: a run that waited for its due time or for a slot does not
            // call for a sensor paused or deleted meanwhile
            if (!store.status(d.id()).filter(SensorStatus::runs).isPresent()) {
                release(d);
                return;
            }
            run(d);
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "sensor " + d.id() + " (tenant " + d.tenant() + ") run failed", e);
            release(d);
        } finally {
            slots.release();
        }
    }

    /** Clears the in-flight marker of a claimed run that ends without recording. */
    private void release(Due d) {
        try {
            store.release(d.id());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "sensor " + d.id() + "'s in-flight marker stays until its lease ends", e);
        }
    }

    /** One run: the call as the sensor's service principal, the verdict, the result row. */
    void run(Due d) {
        call.run(d);
    }

    /** Deletes results older than the retention; returns how many. */
    public int sweep() {
        return store.sweep(retentionDays);
    }

    @Override
    public void close() {
        // sensor runs in flight finish (each is one bounded dispatch, audited); new ones are not started
        runner.shutdown();
        try {
            if (!runner.awaitTermination(10, TimeUnit.SECONDS)) {
                runner.shutdownNow();
                runner.awaitTermination(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            runner.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    /** Running due sensors (polled every second), and the results' retention sweep. */
    public List<PeriodicJob> periodicJobs() {
        return List.of(new PeriodicJob("sensors-due", Duration.ofSeconds(1), this::runDue),
                new PeriodicJob("sensor-results-sweep", Duration.ofHours(1), this::sweep));
    }
}
