package dev.backplane.kernel.runbooks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.dispatch.CallRequest;
import dev.backplane.kernel.dispatch.OperationCalls;
import dev.backplane.kernel.dispatch.ResultEnvelope;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.runbooks.RunbookInputs.Answer;
import dev.backplane.kernel.runbooks.RunbookRun.Phase;
import dev.backplane.kernel.runbooks.RunbookRun.Status;
import dev.backplane.kernel.runbooks.RunbookRunStore.Row;
import dev.backplane.kernel.util.JsonMapping;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The current step of a run: its operation called through the pipeline, and the verification answer
 * taken. Every move but the call itself is made on the run's locked row, and checked against
 * {@link Status#canMoveTo} first. Approvals and escalations are {@link RunbookResumes}'s.
 */
final class RunbookSteps {

    private static final int MAX_RESULT_CHARS = 32_768;
    /** Longer than any call may take (plugin call timeout plus the pipeline's own writes). */
    private static final Duration IN_FLIGHT_LIMIT = Duration.ofMinutes(15);

    private final RunbookRunStore store;
    private final OperationCalls calls;

    RunbookSteps(RunbookRunStore store, OperationCalls calls) {
        this.store = store;
        this.calls = calls;
    }

    /** Claims the step's operation: it is called, after this commit, by {@link #execute}. */
    static void claim(Connection c, Row run) throws SQLException {
        checked(run, Phase.EXECUTING);
        RunbookRunStore.claim(c, run.id());
    }

    /** Runs the step's operation through the pipeline as the caller, in the run's audit session. */
    void execute(Caller caller, Row run, JsonNode step) {
        JsonNode op = step.path("operation");
        ResultEnvelope env;
        try {
            Map<String, Object> params = JsonMapping.mapper().convertValue(RunbookInputs.render(op.path("params"),
                    run.inputs()), JsonMapping.mapper().getTypeFactory().constructMapType(LinkedHashMap.class,
                    String.class, Object.class));
            env = calls.call(caller.inSession(run.id()), new CallRequest(op.path("connector_id").asText(),
                    op.path("op_id").asText(), run.target().orElseThrow(), params == null ? Map.of() : params,
                    run.workRef(), Optional.empty(), Optional.empty()));
        } catch (DomainException e) {
            // the call could not be resolved (connector disabled since, target gone): the step records why
            env = new ResultEnvelope(ResultEnvelope.ERROR, op.path("op_id").asText(), null, e.getMessage(), 0,
                    Map.of("error_code", e.code()));
        } catch (RuntimeException e) {
            env = new ResultEnvelope(ResultEnvelope.ERROR, op.path("op_id").asText(), null, "the call failed: "
                    + e.getClass().getSimpleName() + " (svc audit replay " + run.id() + " shows whether it reached the "
                    + "target)", 0, Map.of("error_code", "internal_error"));
        }
        ResultEnvelope outcome = env;
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("connector_id", op.path("connector_id").asText());
        detail.put("op_id", op.path("op_id").asText());
        Optional.ofNullable(env.extras().get("error_code")).ifPresent(v -> detail.put("error_code", v));
        Optional.ofNullable(env.extras().get("audit_id")).ifPresent(v -> detail.put("audit_id", v));
        store.inTransaction(c -> {
            locked(c, run.tenantId(), run.id()); // an abort meanwhile writes its log entry first, this after
            if (outcome.status().equals(ResultEnvelope.AWAITING_APPROVAL)) {
                String approval = String.valueOf(outcome.extras().get("approval_request_id"));
                detail.put("approval_request_id", approval);
                RunbookRunStore.parked(c, run.id(), UUID.fromString(approval), stored(outcome, caller));
            } else {
                RunbookRunStore.answered(c, run.id(), stored(outcome, caller));
            }
            RunbookRunStore.log(c, run.tenantId(), run.id(), run.step(), "operation", Optional.of(outcome.status()),
                    detail, caller.sub());
            return null;
        });
    }

    /**
     * A {@code next} while the step's call is in flight: refused, unless the claim is so old that the
     * kernel making the call must have stopped — then the step is marked executed with an unknown
     * outcome (never called again: a governed write may not be safe to repeat; the audit log tells).
     */
    static void inFlight(Connection c, Caller caller, Row run) throws SQLException {
        if (run.updatedAt().isAfter(Instant.now().minus(IN_FLIGHT_LIMIT))) {
            throw RunbookErrors.STEP_IN_FLIGHT.error("step " + (run.step() + 1) + "'s operation is running; try again when "
                    + "it has answered", Map.of("step", run.step() + 1));
        }
        checked(run, Phase.EXECUTED);
        Map<String, Object> unknown = Map.of("status", "unknown", "note", "the call was started but its outcome was "
                + "never recorded (the kernel stopped?); it is not repeated - see svc audit replay " + run.id());
        RunbookRunStore.executed(c, run.id(), unknown);
        RunbookRunStore.log(c, run.tenantId(), run.id(), run.step(), "operation", Optional.of("unknown"), unknown,
                caller.sub());
    }

    /** A verification answer on the current step. Returns the terminal status it led to, if any. */
    static Optional<Status> answer(Connection c, Caller caller, Row run, RunbookTemplate t, JsonNode step,
                                   Answer answer, Optional<String> reason) throws SQLException {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("question", step.path("verify").asText());
        reason.ifPresent(r -> detail.put("reason", r));
        switch (answer) {
            case YES -> {
                if (step.has("operation") && run.phase() == Phase.PENDING) {
                    throw RunbookErrors.STEP_NOT_RUN.error("step " + (run.step() + 1) + "'s operation has not run yet: "
                            + "run it with next (no answer), then verify", Map.of("step", run.step() + 1));
                }
                RunbookRunStore.log(c, run.tenantId(), run.id(), run.step(), "verified", Optional.of("yes"), detail,
                        caller.sub());
                return advance(c, run, t);
            }
            case NO -> {
                String why = reason.orElse("verification failed: " + step.path("verify").asText());
                RunbookRunStore.finish(c, run.id(), checked(run, Status.STOPPED), why);
                RunbookRunStore.log(c, run.tenantId(), run.id(), run.step(), "verified", Optional.of("no"), detail,
                        caller.sub());
                return Optional.of(Status.STOPPED);
            }
            default -> {
                checked(run, Status.ESCALATED);
                RunbookRunStore.escalate(c, run.id(), caller.sub(), reason.orElse("escalated at step "
                        + (run.step() + 1)));
                RunbookRunStore.log(c, run.tenantId(), run.id(), run.step(), "escalated", Optional.of("escalate"),
                        detail, caller.sub());
                return Optional.empty();
            }
        }
    }

    /** The step verified: the run moves to its next step, or completes after its last. */
    static Optional<Status> advance(Connection c, Row run, RunbookTemplate t) throws SQLException {
        int next = run.step() + 1;
        if (next >= t.stepList().size()) {
            checked(run, Status.COMPLETED);
            RunbookRunStore.complete(c, run.id());
            return Optional.of(Status.COMPLETED);
        }
        checked(run, Status.IN_PROGRESS);
        RunbookRunStore.moveTo(c, run.id(), next);
        return Optional.empty();
    }

    /** The run's row, locked until the transaction ends; {@code 404} when the tenant has no such run. */
    static Row locked(Connection c, UUID tenant, UUID id) throws SQLException {
        return RunbookRunStore.lock(c, tenant, id).orElseThrow(() -> RunbookRuns.notFound(id.toString()));
    }

    /** Only the run's assignee or a tenant_admin moves a run. */
    static void mayAct(Caller caller, Row run) {
        if (!caller.sub().equals(run.assignee()) && !caller.effectiveRole().includes(Role.TENANT_ADMIN)) {
            throw RunbookErrors.NOT_ASSIGNEE.error("only the run's assignee (" + run.assignee() + ") or a tenant_admin "
                    + "may move run " + run.id(), Map.of("assignee", run.assignee()));
        }
    }

    /** {@code next}, which the run's status may move to; a move the table forbids is a bug, never a write. */
    static Status checked(Row run, Status next) {
        if (!run.status().canMoveTo(next)) {
            throw new IllegalStateException("run " + run.id() + " cannot move from " + run.status().wire() + " to "
                    + next.wire());
        }
        return next;
    }

    /** {@code next}, which the step's phase may move to; a move the table forbids is a bug, never a write. */
    static Phase checked(Row run, Phase next) {
        if (!run.phase().canMoveTo(next)) {
            throw new IllegalStateException("step " + (run.step() + 1) + " of run " + run.id() + " cannot move from "
                    + run.phase().wire() + " to " + next.wire());
        }
        return next;
    }

    private static Map<String, Object> stored(ResultEnvelope env, Caller ranBy) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ran_by", ranBy.sub());
        m.put("status", env.status());
        m.put("op_id", env.opId());
        if (env.error() != null) {
            m.put("error", env.error());
        }
        m.put("extras", env.extras());
        String result = JsonMapping.write(env.result());
        m.put("result", result.length() <= MAX_RESULT_CHARS ? env.result() : Map.of("truncated", true, "note",
                "the result was larger than " + MAX_RESULT_CHARS + " characters; page it with svc operation result-query"));
        return m;
    }
}
