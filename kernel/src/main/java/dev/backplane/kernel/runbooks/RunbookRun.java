package dev.backplane.kernel.runbooks;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.runbooks.RunbookRunStore.Row;
import java.util.Arrays;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A runbook run as shown: its state, its inputs, what happened so far (the log), and only its current
 * step — rendered with the run's inputs — never the steps after it.
 *
 * @param currentStep empty once the run completed
 */
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public record RunbookRun(UUID id, String slug, int version, String title, String status, Optional<String> target,
                         Map<String, String> inputs, Optional<String> workRef, String assignee, Optional<String> reason,
                         int stepsTotal, Optional<Map<String, Object>> currentStep, List<Map<String, Object>> log,
                         Instant startedAt, Instant updatedAt, Optional<Instant> finishedAt) {

    /**
     * A run's status and the moves allowed from it: the one place that says which status may follow which.
     * {@code in_progress} (current step pending or executed) may stay in progress (the next step), park
     * for approval, be escalated or end; {@code awaiting_approval} resumes once its call was approved and
     * run, or stops, or is aborted; {@code escalated} resumes (on the same or the next step, or completing
     * the run), stops or is aborted; {@code completed}, {@code stopped} and {@code aborted} are final.
     */
    enum Status {
        IN_PROGRESS("in_progress"),
        AWAITING_APPROVAL("awaiting_approval"),
        ESCALATED("escalated"),
        COMPLETED("completed"),
        STOPPED("stopped"),
        ABORTED("aborted");

        private final String wire;

        Status(String wire) {
            this.wire = wire;
        }

        /** The name in JSON and in the {@code status} column. */
        @JsonValue
        String wire() {
            return wire;
        }

        /** Completed, stopped or aborted: nothing moves the run any more. */
        boolean finished() {
            return this == COMPLETED || this == STOPPED || this == ABORTED;
        }

        boolean canMoveTo(Status next) {
            return switch (this) {
                case IN_PROGRESS -> true;
                case AWAITING_APPROVAL -> next == IN_PROGRESS || next == STOPPED || next == ABORTED;
                case ESCALATED -> next == IN_PROGRESS || next == COMPLETED || next == STOPPED || next == ABORTED;
                case COMPLETED, STOPPED, ABORTED -> false;
            };
        }

        /** The status with this wire name, if any. */
        static Optional<Status> parse(String wire) {
            return Arrays.stream(values()).filter(s -> s.wire.equals(wire)).findFirst();
        }

        /** The status a stored row holds (the column's check constraint admits no other). */
        static Status of(String wire) {
            return parse(wire).orElseThrow(() -> new IllegalArgumentException("no run status '" + wire + "'"));
        }

        /** Every wire name, sorted (for messages). */
        static List<String> wireNames() {
            return Arrays.stream(values()).map(Status::wire).sorted().toList();
        }
    }

    /**
     * Where the current step's operation is: {@code pending} (not run, or parked for approval),
     * {@code executing} (claimed; the call is under way) or {@code executed} (its outcome is recorded). A
     * step moves pending → executing → executed, back to pending when its call parks for approval, and
     * pending → executed when an approver's release ran the parked call; the next step starts pending.
     */
    enum Phase {
        PENDING("pending"),
        EXECUTING("executing"),
        EXECUTED("executed");

        private final String wire;

        Phase(String wire) {
            this.wire = wire;
        }

        /** The name in JSON and in the {@code phase} column. */
        @JsonValue
        String wire() {
            return wire;
        }

        boolean canMoveTo(Phase next) {
            return switch (this) {
                case PENDING -> next == EXECUTING || next == EXECUTED;
                case EXECUTING -> next == EXECUTED || next == PENDING;
                case EXECUTED -> false;
            };
        }

        static Phase of(String wire) {
            return Arrays.stream(values()).filter(p -> p.wire.equals(wire)).findFirst().orElseThrow(() ->
                    new IllegalArgumentException("no step phase '" + wire + "'"));
        }
    }

    /** A run in a list. */
    public record Summary(UUID id, String slug, int version, String status, int step, Optional<String> target,
                          Optional<String> workRef, String assignee, Instant startedAt, Optional<Instant> finishedAt) {
        static Summary of(Row r) {
            return new Summary(r.id(), r.slug(), r.version(), r.status().wire(), r.step() + 1, r.target(), r.workRef(),
                    r.assignee(), r.startedAt(), r.finishedAt());
        }
    }

    static RunbookRun of(Row r, RunbookTemplate t, List<Map<String, Object>> log, String viewer) {
        JsonNode steps = t.stepList();
        Optional<Map<String, Object>> current = Optional.empty();
        if (r.status() != Status.COMPLETED) {
            JsonNode s = steps.get(r.step());
            Map<String, Object> step = new LinkedHashMap<>();
            step.put("index", r.step() + 1);
            if (s.has("name")) {
                step.put("name", s.path("name").asText());
            }
            step.put("instruction", RunbookInputs.renderText(s.path("instruction").asText(), r.inputs()));
            if (s.has("operation")) {
                Map<String, Object> op = new LinkedHashMap<>();
                op.put("connector_id", s.path("operation").path("connector_id").asText());
                op.put("op_id", s.path("operation").path("op_id").asText());
                op.put("params", RunbookInputs.render(s.path("operation").path("params"), r.inputs()));
                op.put("target", r.target().orElse(null));
                step.put("operation", op);
            }
            step.put("verify", s.path("verify").asText());
            step.put("phase", r.phase().wire());
            r.approvalId().ifPresent(a -> step.put("approval_request_id", a.toString()));
            if (!r.lastResult().isMissingNode()) {
                step.put("result", visibleTo(r.lastResult(), viewer));
            }
            current = Optional.of(step);
        }
        return new RunbookRun(r.id(), r.slug(), r.version(), t.title(), r.status().wire(), r.target(), r.inputs(),
                r.workRef(), r.assignee(), r.reason(), steps.size(), current, log, r.startedAt(), r.updatedAt(),
                r.finishedAt());
    }

    /**
     * A step's outcome as {@code viewer} may see it: whoever ran the step sees the whole envelope (its
     * result is theirs, as a result handle is); anyone else the outcome only — status, error code, audit
     * row — since the result may hold what only the runner's grants allowed them to read.
     */
    private static JsonNode visibleTo(JsonNode result, String viewer) {
        if (!result.has("ran_by") || result.path("ran_by").asText().equals(viewer)) {
            return result;
        }
        ObjectNode only = JsonNodeFactory.instance.objectNode();
        only.set("ran_by", result.path("ran_by"));
        only.set("status", result.path("status"));
        for (String field : List.of("error_code", "audit_id", "approval_request_id")) {
            if (result.path("extras").has(field)) {
                only.set(field, result.path("extras").path(field));
            }
        }
        only.put("note", "the result is shown to " + result.path("ran_by").asText() + ", who ran the step");
        return only;
    }
}
