package dev.backplane.kernel.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.JsonMapping;
import java.io.IOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * SQL for {@code background_jobs}, one row per job: recording it, its status moves with their progress,
 * result or error, the stale-job reaper's update, and reading a job back as its tenant sees it.
 */
final class BackgroundJobStore {

    private final Jdbc jdbc;

    BackgroundJobStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** Records a new job in {@code status}. */
    void insert(UUID id, JobKind kind, UUID tenant, String requestedBy, JobStatus status, Object details,
                Object progress) {
        jdbc.update("""
                INSERT INTO background_jobs (id, kind, tenant_id, requested_by, status, details, progress,
                       created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, now(), now())""", id, kind.name(), tenant, requestedBy,
                status.wire(), Jdbc.jsonb(details), Jdbc.jsonb(progress));
    }

    /** A queued job's runner picked it up. */
    void markRunning(UUID id) {
        jdbc.update("UPDATE background_jobs SET status = ?, updated_at = now() WHERE id = ?", JobStatus.RUNNING.wire(),
                id);
    }

    /** The job succeeded: its last progress and its result. */
    void markSucceeded(UUID id, Object progress, Object result) {
        jdbc.update("""
                UPDATE background_jobs SET status = ?, progress = ?, result = ?, updated_at = now(),
                       finished_at = now()
                WHERE id = ?""", JobStatus.SUCCEEDED.wire(), Jdbc.jsonb(progress), Jdbc.jsonb(result), id);
    }

    /** The job failed: its last progress and {@code {error_code, message}}. */
    void markFailed(UUID id, Object progress, String code, String message) {
        jdbc.update("""
                UPDATE background_jobs SET status = ?, progress = ?, error = ?, updated_at = now(),
                       finished_at = now()
                WHERE id = ?""", JobStatus.FAILED.wire(), Jdbc.jsonb(progress), Jdbc.jsonb(Map.of("error_code", code,
                "message", message)), id);
    }

    /** A running job's progress report. */
    void writeProgress(UUID id, Object progress) {
        jdbc.update("UPDATE background_jobs SET progress = ?, updated_at = now() WHERE id = ?", Jdbc.jsonb(progress),
                id);
    }

    /**
     * Fails the kind's unfinished jobs not updated for {@code staleAfter}, with {@code error}; returns how many.
     * The unfinished statuses are spelled out: they are the predicate of the partial index
     * {@code background_jobs_unfinished}, which a bound parameter would not match.
     */
    int failStale(JobKind kind, Duration staleAfter, Map<String, String> error) {
        return jdbc.update("""
                UPDATE background_jobs SET status = ?, error = ?, updated_at = now(), finished_at = now()
                WHERE kind = ? AND status IN ('queued', 'running')
                  AND updated_at < now() - make_interval(secs => ?)""",
                JobStatus.FAILED.wire(), Jdbc.jsonb(error), kind.name(), (double) staleAfter.toMillis() / 1000);
    }

    /** The job with this id, of this kind, in this tenant. */
    Optional<BackgroundJob> find(UUID id, JobKind kind, UUID tenant) {
        return jdbc.queryOne("SELECT * FROM background_jobs WHERE id = ? AND kind = ? AND tenant_id = ?",
                rs -> row(kind, rs), id, kind.name(), tenant);
    }

    private static BackgroundJob row(JobKind kind, ResultSet rs) throws SQLException {
        return new BackgroundJob(rs.getObject("id", UUID.class), kind, JobStatus.ofWire(rs.getString("status")),
                json(rs, "details"), json(rs, "progress"), json(rs, "result"), json(rs, "error"),
                rs.getTimestamp("created_at").toInstant(), rs.getTimestamp("updated_at").toInstant(),
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
}
