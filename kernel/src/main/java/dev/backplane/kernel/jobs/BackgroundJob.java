package dev.backplane.kernel.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * A background job's row as its tenant sees it. The JSON columns are JSON null (never Java null)
 * when unset: {@code result} until the job succeeds, {@code error} unless it failed.
 *
 * @param status {@code queued}, {@code running}, {@code succeeded} or {@code failed}
 * @param details what the job was asked to do (kind-specific)
 * @param progress the latest progress its runner reported
 * @param result what a succeeded job returned
 * @param error {@code {error_code, message}} of a failed job
 */
public record BackgroundJob(UUID id, JobKind kind, String status, JsonNode details, JsonNode progress,
                            JsonNode result, JsonNode error, Instant createdAt, Instant updatedAt,
                            Optional<Instant> finishedAt) {

    /** Succeeded or failed: polling it again changes nothing. */
    public boolean terminal() {
        return status.equals("succeeded") || status.equals("failed");
    }

    public String pollUrl() {
        return kind.pollPath() + "/" + id;
    }
}
