package dev.backplane.kernel.runbooks;

import static dev.backplane.kernel.runbooks.RunbookInputs.invalid;
import static dev.backplane.kernel.runbooks.RunbookSteps.mayAct;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.runbooks.RunbookInputs.Answer;
import dev.backplane.kernel.runbooks.RunbookResumes.ApprovalOutcome;
import dev.backplane.kernel.runbooks.RunbookRun.Phase;
import dev.backplane.kernel.runbooks.RunbookRun.Status;
import dev.backplane.kernel.runbooks.RunbookRunStore.Row;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The rules of a runbook run's {@code next}: the request's checks, its checks against the run as read before
 * the lock and again under it, and what it does under the run's lock — resolve an escalation, refresh a parked
 * approval, take a verification answer, or claim the step's call (made by {@link RunbookRuns} after the commit).
 */
final class RunbookNext {

    /** A checked {@code next}: its verification answer, its reason, and the 1-based step its author saw (each optional). */
    record Request(Optional<Answer> answer, Optional<String> reason, Optional<Integer> seen) {

        /** The request of a {@code next} body (null: no answer); {@code 422 invalid_run} for a bad answer, reason or step. */
        static Request of(RunbookRuns.Next n) {
            Optional<Answer> answer = Answer.parse(n == null ? null : n.verifyResponse());
            Optional<String> reason = Optional.ofNullable(n == null ? null : n.reason()).filter(v -> !v.isBlank());
            reason.ifPresent(RunbookInputs::checkReason);
            Optional<Integer> seen = Optional.ofNullable(n == null ? null : n.step());
            seen.filter(v -> v < 1).ifPresent(v -> {
                throw invalid("step must be the 1-based number of the step answered, got " + v, "step");
            });
            return new Request(answer, reason, seen);
        }

        /** The run as read must not have finished, and be at the step the author saw (when the request says which). */
        void checkAgainst(Row peek) {
            if (peek.status().finished()) {
                throw RunbookRuns.finished(peek.id(), peek.status());
            }
            seen.filter(v -> v != peek.step() + 1).ifPresent(v -> {
                throw RunbookErrors.STEP_CHANGED.error("the answer is for step " + v + ", but the run is at step "
                        + (peek.step() + 1) + "; show the run and answer again", Map.of("step", peek.step() + 1));
            });
        }
    }

    /** What a {@code next} did under the lock: the step it claimed (called after the commit), the end it led to. */
    record Move(Optional<Row> claimed, Optional<Status> finished) {
        static final Move NONE = new Move(Optional.empty(), Optional.empty());

        static Move finished(Optional<Status> status) {
            return new Move(Optional.empty(), status);
        }
    }

    private RunbookNext() {
    }

    /** The locked row must still be where it was read, or {@code 409 step_changed}: the run moved on meanwhile. */
    static void checkUnchanged(Row peek, Row run) {
        if (run.step() != peek.step() || run.status() != peek.status() || run.phase() != peek.phase()) {
            throw RunbookErrors.STEP_CHANGED.error("run " + run.id() + " moved on meanwhile (now " + run.status().wire()
                    + " at step " + (run.step() + 1) + "); show it and answer again", Map.of("step", run.step() + 1));
        }
    }

    /**
     * The move of a {@code next} on run {@code id}, under its row lock: {@code step} is the template's current step
     * and {@code decided} what became of a parked approval, both read before the lock.
     */
    static Move underLock(Connection c, Caller caller, UUID id, Row peek, RunbookTemplate t, JsonNode step, Request r,
                          Optional<ApprovalOutcome> decided) throws SQLException {
        Row run = RunbookSteps.locked(c, caller.tenantId(), id);
        checkUnchanged(peek, run);
        if (run.status() == Status.ESCALATED) {
            return Move.finished(RunbookResumes.resolveEscalation(c, caller, run, t, r.answer(), r.reason()));
        }
        if (run.status() == Status.AWAITING_APPROVAL) {
            Optional<Status> refreshed = decided.isPresent() ? RunbookResumes.refresh(c, caller, run, decided.get())
                    : Optional.empty();
            if (refreshed.isPresent() || r.answer().isEmpty()) {
                return Move.finished(refreshed); // rejected or expired: the run stopped; nothing is left to verify
            }
            return Move.finished(RunbookSteps.answer(c, caller, RunbookSteps.locked(c, caller.tenantId(), id), t, step,
                    r.answer().get(), r.reason()));
        }
        mayAct(caller, run);
        if (run.phase() == Phase.EXECUTING) {
            RunbookSteps.inFlight(c, caller, run);
        } else if (r.answer().isPresent()) {
            return Move.finished(RunbookSteps.answer(c, caller, run, t, step, r.answer().get(), r.reason()));
        } else if (step.has("operation") && run.phase() == Phase.PENDING) {
            // claimed here, called after this commit: no row lock or connection is held across the call
            RunbookSteps.claim(c, run);
            return new Move(Optional.of(run), Optional.empty());
        }
        return Move.NONE;
    }
}
