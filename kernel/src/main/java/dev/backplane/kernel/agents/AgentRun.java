package dev.backplane.kernel.agents;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
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

    /**
     * A run's status; the lower-case name is what the API, the table and the activity feed carry. Its
     * transitions live here, in {@link #canMoveTo}: the store's guards are built from {@link #movable()}.
     */
    enum Status {
        PENDING, RUNNING, AWAITING_APPROVAL, SUCCEEDED, FAILED, CANCELLED;

        String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        boolean finished() {
            return this == SUCCEEDED || this == FAILED || this == CANCELLED;
        }

        /**
         * Whether a run in this status may move to {@code next}: a finished run never moves again (its outcome
         * and audit row are final); an unfinished one may start or keep running, park for an approval, be handed
         * back to pending by a kernel that shuts down, or finish in any way.
         */
        boolean canMoveTo(Status next) {
            return next != null && !finished();
        }

        /** The statuses a run may still move from, in declaration order. */
        static List<Status> movable() {
            return Arrays.stream(values()).filter(s -> s.canMoveTo(SUCCEEDED)).toList();
        }

        /** The status named {@code wire} (the API's lower-case name), if there is one. */
        static Optional<Status> parse(String wire) {
            return Arrays.stream(values()).filter(s -> s.wire().equals(wire)).findFirst();
        }

        /** The outcome of the audit row a run that ends in this status writes. */
        String auditOutcome() {
            return this == SUCCEEDED ? "ok" : this == CANCELLED ? "denied" : "error";
        }
    }

    /** This run's status as the enum. */
    Status state() {
        return Status.valueOf(status.toUpperCase(Locale.ROOT));
    }

    boolean finished() {
        return state().finished();
    }
}
