package dev.backplane.kernel.agents;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
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

    static final String PENDING = "pending";
    static final String RUNNING = "running";
    static final String AWAITING_APPROVAL = "awaiting_approval";
    static final String SUCCEEDED = "succeeded";
    static final String FAILED = "failed";
    static final String CANCELLED = "cancelled";

    boolean finished() {
        return status.equals(SUCCEEDED) || status.equals(FAILED) || status.equals(CANCELLED);
    }
}
