package dev.backplane.kernel.runbooks;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
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

    /** A run in a list. */
    public record Summary(UUID id, String slug, int version, String status, int step, Optional<String> target,
                          Optional<String> workRef, String assignee, Instant startedAt, Optional<Instant> finishedAt) {
        static Summary of(RunbookRuns.Row r) {
            return new Summary(r.id(), r.slug(), r.version(), r.status(), r.step() + 1, r.target(), r.workRef(),
                    r.assignee(), r.startedAt(), r.finishedAt());
        }
    }

    static RunbookRun of(RunbookRuns.Row r, RunbookTemplate t, List<Map<String, Object>> log, String viewer) {
        JsonNode steps = t.stepList();
        Optional<Map<String, Object>> current = Optional.empty();
        if (!r.status().equals(RunbookRuns.COMPLETED)) {
            JsonNode s = steps.get(r.step());
            Map<String, Object> step = new LinkedHashMap<>();
            step.put("index", r.step() + 1);
            if (s.has("name")) {
                step.put("name", s.path("name").asText());
            }
            step.put("instruction", RunbookRuns.renderText(s.path("instruction").asText(), r.inputs()));
            if (s.has("operation")) {
                Map<String, Object> op = new LinkedHashMap<>();
                op.put("connector_id", s.path("operation").path("connector_id").asText());
                op.put("op_id", s.path("operation").path("op_id").asText());
                op.put("params", RunbookRuns.render(s.path("operation").path("params"), r.inputs()));
                op.put("target", r.target().orElse(null));
                step.put("operation", op);
            }
            step.put("verify", s.path("verify").asText());
            step.put("phase", r.phase());
            r.approvalId().ifPresent(a -> step.put("approval_request_id", a.toString()));
            if (!r.lastResult().isMissingNode()) {
                step.put("result", visibleTo(r.lastResult(), viewer));
            }
            current = Optional.of(step);
        }
        return new RunbookRun(r.id(), r.slug(), r.version(), t.title(), r.status(), r.target(), r.inputs(), r.workRef(),
                r.assignee(), r.reason(), steps.size(), current, log, r.startedAt(), r.updatedAt(), r.finishedAt());
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
        var only = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
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
