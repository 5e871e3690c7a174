package dev.backplane.kernel.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * A background job's row as its tenant sees it. The JSON columns are JSON null (never Java null)
 * when unset: {@code result} until the job succeeds, {@code error} unless it failed.
 *
 * @param state queued, running, succeeded or failed
 * @param details what the job was asked to do (kind-specific)
 * @param progress the latest progress its runner reported
 * @param result what a succeeded job returned
 * @param error {@code {error_code, message}} of a failed job
 */
public record BackgroundJob(UUID id, JobKind kind, JobStatus state, JsonNode details, JsonNode progress,
                            JsonNode result, JsonNode error, Instant createdAt, Instant updatedAt,
                            Optional<Instant> finishedAt) {

    /** {@code queued}, {@code running}, {@code succeeded} or {@code failed} (the wire name). */
    public String status() {
        return state.wire();
    }

    /** Succeeded or failed: polling it again changes nothing. */
    public boolean terminal() {
        return state.terminal();
    }

    public String pollUrl() {
        return kind.pollPath() + "/" + id;
    }
}
