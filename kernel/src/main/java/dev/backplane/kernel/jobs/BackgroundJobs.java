package dev.backplane.kernel.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.PeriodicJob;
import dev.backplane.kernel.util.JsonMapping;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
    }

    private final Jdbc jdbc;
    private final Map<String, JobKind> kinds;
    private final ExecutorService runner = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("background-job-", 0).factory());

    /** {@code kinds}: every kind this kernel runs, so that the reaper covers each. */
    public BackgroundJobs(Jdbc jdbc, List<JobKind> kinds) {
        this.jdbc = jdbc;
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
        jdbc.update("""
                INSERT INTO background_jobs (id, kind, tenant_id, requested_by, status, details, progress,
                       created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, now(), now())""", id, kind.name(), caller.tenantId(), caller.sub(),
                kind.queuedFirst() ? "queued" : "running", Jdbc.jsonb(details), Jdbc.jsonb(progress));
        runner.submit(() -> run(kind, id, new RowProgress(id, progress), work));
        return id;
    }

    private void run(JobKind kind, UUID id, RowProgress progress, Work work) {
        try {
            if (kind.queuedFirst()) {
                jdbc.update("UPDATE background_jobs SET status = 'running', updated_at = now() WHERE id = ?", id);
            }
            Object result = work.run(progress);
            jdbc.update("""
                    UPDATE background_jobs SET status = 'succeeded', progress = ?, result = ?, updated_at = now(),
                           finished_at = now()
                    WHERE id = ?""", Jdbc.jsonb(progress.latest), Jdbc.jsonb(result), id);
        } catch (DomainException e) {
            fail(id, progress, e.code(), e.getMessage());
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, kind.label() + " job " + id + " failed", e);
            fail(id, progress, kind.codePrefix() + "_failed", kind.label() + " failed: " + e);
        }
    }

    private void fail(UUID id, RowProgress progress, String code, String message) {
        jdbc.update("""
                UPDATE background_jobs SET status = 'failed', progress = ?, error = ?, updated_at = now(),
                       finished_at = now()
                WHERE id = ?""", Jdbc.jsonb(progress.latest), Jdbc.jsonb(Map.of("error_code", code,
                "message", message)), id);
    }

    /** Fails unfinished jobs nobody has updated for 5 minutes (their kernel died). */
    public int reapStale() {
        return reapStale(Duration.ofMinutes(5));
    }

    /** Fails unfinished jobs nobody has updated for {@code staleAfter} (their kernel died); run periodically. */
    public int reapStale(Duration staleAfter) {
        int reaped = 0;
        for (JobKind kind : kinds.values()) {
            reaped += jdbc.update("""
                    UPDATE background_jobs SET status = 'failed', error = ?, updated_at = now(), finished_at = now()
                    WHERE kind = ? AND status IN ('queued', 'running')
                      AND updated_at < now() - make_interval(secs => ?)""",
                    Jdbc.jsonb(Map.of("error_code", kind.codePrefix() + "_abandoned", "message",
                            kind.abandonedMessage())), kind.name(), (double) staleAfter.toMillis() / 1000);
        }
        if (reaped > 0) {
            LOG.log(Level.WARNING, reaped + " abandoned background job(s) marked failed");
        }
        return reaped;
    }

    /** The job as its tenant sees it: another tenant's job, or one of another kind, is not found. */
    public BackgroundJob job(Caller caller, JobKind kind, UUID id) {
        registered(kind);
        return jdbc.queryOne("SELECT * FROM background_jobs WHERE id = ? AND kind = ? AND tenant_id = ?",
                rs -> row(kind, rs), id, kind.name(), caller.tenantId())
                .orElseThrow(() -> DomainException.notFound(kind.codePrefix() + "_job_not_found", "no " + kind.label()
                        + " job " + id + " in this tenant"));
    }

    private void registered(JobKind kind) {
        if (!kind.equals(kinds.get(kind.name()))) {
            throw new IllegalArgumentException("job kind " + kind.name() + " is not registered with BackgroundJobs");
        }
    }

    private static BackgroundJob row(JobKind kind, ResultSet rs) throws SQLException {
        return new BackgroundJob(rs.getObject("id", UUID.class), kind, rs.getString("status"), json(rs, "details"),
                json(rs, "progress"), json(rs, "result"), json(rs, "error"), rs.getTimestamp("created_at").toInstant(),
                rs.getTimestamp("updated_at").toInstant(),
                Optional.ofNullable(rs.getTimestamp("finished_at")).map(Timestamp::toInstant));
    }

    private static JsonNode json(ResultSet rs, String column) throws SQLException {
        String text = rs.getString(column);
        try {
            return JsonMapping.mapper().readTree(text == null ? "null" : text);
        } catch (IOException e) {
            throw new SQLException("background_jobs." + column + " is not JSON", e);
        }
    }

    /** Writes a job's progress to its row, throttled; keeps the latest report for the job's last write. */
    private final class RowProgress implements Progress {
        private final UUID id;
        private Object latest;
        private long lastWrite = System.nanoTime() - PROGRESS_EVERY.toNanos();

        RowProgress(UUID id, Object initial) {
            this.id = id;
            this.latest = initial;
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

        private void write() {
            lastWrite = System.nanoTime();
            jdbc.update("UPDATE background_jobs SET progress = ?, updated_at = now() WHERE id = ?", Jdbc.jsonb(latest),
                    id);
        }
    }

    /** Failing jobs whose worker stopped reporting for {@code staleAfter}, every {@code every}. */
    public List<PeriodicJob> periodicJobs(Duration every, Duration staleAfter) {
        return List.of(new PeriodicJob("background-job-reaper", every, () -> reapStale(staleAfter)));
    }
}
