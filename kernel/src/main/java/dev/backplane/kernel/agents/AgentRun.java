package dev.backplane.kernel.agents;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

/**
 * An agent run as shown (SPEC "Agent run": handle, status, work_ref, agent name). The input prompt is
 * not kept, only its hash; {@code output} is the final answer (validated against the definition's
 * output schema when it has one).
 */
public record AgentRun(UUID handle, String agentName, String status, Optional<String> workRef, String startedBy,
                       String inputSha256, int turns, Optional<JsonNode> output, Optional<String> error,
                       Optional<String> errorCode, Optional<UUID> approvalRequestId, Instant createdAt,
                       Instant updatedAt, Optional<Instant> finishedAt) {

    /** A run's status; the lower-case name is what the API, the table and the activity feed carry. */
    enum Status {
        PENDING, RUNNING, AWAITING_APPROVAL, SUCCEEDED, FAILED, CANCELLED;

        String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        boolean finished() {
            return this == SUCCEEDED || this == FAILED || this == CANCELLED;
        }
    }

    boolean finished() {
        return Status.valueOf(status.toUpperCase(Locale.ROOT)).finished();
    }
}
