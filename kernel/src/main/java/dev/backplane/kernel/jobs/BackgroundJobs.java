package dev.backplane.kernel.jobs;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.PeriodicJob;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Work the kernel runs in the background (big spec ingests, kb directory ingests): one row per job in
 * {@code background_jobs}, which is the job's only state, so any replica answers a poll. A job runs on
 * its own virtual thread; its progress reports are written at most every {@link #PROGRESS_EVERY} and
 * the latest one when it ends. A job whose kernel died stops being updated; {@link #reapStale} marks it
 * failed once it has gone 5 minutes (the kernel's setting reapers.job-stale-seconds) without an update.
 */
public final class BackgroundJobs {

    /** How often a running job's progress is written at most. */
    static final Duration PROGRESS_EVERY = Duration.ofMillis(300);

    private static final System.Logger LOG = System.getLogger(BackgroundJobs.class.getName());

    /** What a job does: reports progress as it goes and returns its result (stored as JSON). */
    @FunctionalInterface
    public interface Work {
        /** @throws DomainException to fail the job with that error code and message */
        Object run(Progress progress);
    }

    /** Where a job reports progress (any JSON-mappable value). */
    public interface Progress {
        /** Written unless one was written less than {@link BackgroundJobs#PROGRESS_EVERY} ago; kept for the end anyway. */
        void report(Object progress);

        /** Written at once (a milestone pollers should see). */
        void reportNow(Object progress);

        /**
         * The job's last progress, written with its outcome in one update and not before: a poller never sees a job
         * that says it is done while its status is still running.
         */
        void reportLast(Object progress);
    }

    private final BackgroundJobStore store;
    private final Map<String, JobKind> kinds;
    private final ExecutorService runner = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("background-job-", 0).factory());

    /** {@code kinds}: every kind this kernel runs, so that the reaper covers each. */
    public BackgroundJobs(Jdbc jdbc, List<JobKind> kinds) {
        this.store = new BackgroundJobStore(jdbc);
        this.kinds = kinds.stream().collect(Collectors.toUnmodifiableMap(JobKind::name, Function.identity()));
    }

    /**
     * Records a job for the caller's tenant and starts it on a virtual thread.
     *
     * @param details what it was asked to do, shown by the kind's status route
     * @param progress the progress it starts with
     */
    public UUID start(JobKind kind, Caller caller, Map<String, ?> details, Object progress, Work work) {
        registered(kind);
        UUID id = UUID.randomUUID();
        JobStatus status = JobStatus.initial(kind);
        store.insert(id, kind, caller.tenantId(), caller.sub(), status, details, progress);
        runner.submit(() -> run(kind, id, new RowProgress(id, status, progress), work));
        return id;
    }

    private void run(JobKind kind, UUID id, RowProgress progress, Work work) {
        try {
            if (progress.status == JobStatus.QUEUED) {
                store.markRunning(id);
                progress.moved(JobStatus.RUNNING);
            }
            Object result = work.run(progress);
            store.markSucceeded(id, progress.latest, result);
            progress.moved(JobStatus.SUCCEEDED);
        } catch (DomainException e) {
            fail(id, progress, e.code(), e.getMessage());
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, kind.label() + " job " + id + " failed", e);
            fail(id, progress, kind.codePrefix() + "_failed", kind.label() + " failed: " + e);
        }
    }

    private void fail(UUID id, RowProgress progress, String code, String message) {
        store.markFailed(id, progress.latest, code, message);
        progress.moved(JobStatus.FAILED);
    }

    /** Fails unfinished jobs nobody has updated for 5 minutes (their kernel died). */
    public int reapStale() {
        return reapStale(Duration.ofMinutes(5));
    }

    /** Fails unfinished jobs nobody has updated for {@code staleAfter} (their kernel died); run periodically. */
    public int reapStale(Duration staleAfter) {
        int reaped = 0;
        for (JobKind kind : kinds.values()) {
            reaped += store.failStale(kind, staleAfter, Map.of("error_code", kind.codePrefix() + "_abandoned",
                    "message", kind.abandonedMessage()));
        }
        if (reaped > 0) {
            LOG.log(Level.WARNING, reaped + " abandoned background job(s) marked failed");
        }
        return reaped;
    }

    /** The job as its tenant sees it: another tenant's job, or one of another kind, is not found. */
    public BackgroundJob job(Caller caller, JobKind kind, UUID id) {
        registered(kind);
        return store.find(id, kind, caller.tenantId()).orElseThrow(() -> DomainException.notFound(
                kind.codePrefix() + "_job_not_found", "no " + kind.label() + " job " + id + " in this tenant"));
    }

    private void registered(JobKind kind) {
        if (!kind.equals(kinds.get(kind.name()))) {
            throw new IllegalArgumentException("job kind " + kind.name() + " is not registered with BackgroundJobs");
        }
    }

    /**
     * Writes a job's progress to its row, throttled; keeps the latest report for the job's last write, and the
     * status its runner has moved the job to (each move checked by {@link JobStatus#moveTo}).
     */
    private final class RowProgress implements Progress {
        private final UUID id;
        private JobStatus status;
        private Object latest;
        private long lastWrite = System.nanoTime() - PROGRESS_EVERY.toNanos();

        RowProgress(UUID id, JobStatus status, Object initial) {
            this.id = id;
            this.status = status;
            this.latest = initial;
        }

        /** The row now reads {@code next}: a move {@link JobStatus} does not allow is a runner's bug. */
        void moved(JobStatus next) {
            status = status.moveTo(next);
        }

        @Override
        public void report(Object progress) {
            latest = progress;
            if (System.nanoTime() - lastWrite >= PROGRESS_EVERY.toNanos()) {
                write();
            }
        }

        @Override
        public void reportNow(Object progress) {
            latest = progress;
            write();
        }

        @Override
        public void reportLast(Object progress) {
            latest = progress; // markSucceeded / markFailed write it with the status
        }

        private void write() {
            lastWrite = System.nanoTime();
            store.writeProgress(id, latest);
        }
    }

    /** Failing jobs whose worker stopped reporting for {@code staleAfter}, every {@code every}. */
    public List<PeriodicJob> periodicJobs(Duration every, Duration staleAfter) {
        return List.of(new PeriodicJob("background-job-reaper", every, () -> reapStale(staleAfter)));
    }
}
