package dev.backplane.kernel.runbooks;

import static dev.backplane.kernel.runbooks.RunbookInputs.invalid;
import static dev.backplane.kernel.runbooks.RunbookSteps.checked;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.audit.AuditQueries;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.governance.Approvals;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.runbooks.RunbookInputs.Answer;
import dev.backplane.kernel.runbooks.RunbookRun.Phase;
import dev.backplane.kernel.runbooks.RunbookRun.Status;
import dev.backplane.kernel.runbooks.RunbookRunStore.Row;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A parked run going on: a step whose operation waits for approval resumes once the call was approved
 * and run (rejected or expired, the run stops), and an escalated run is answered by another tenant_admin,
 * whose yes resumes it and no stops it.
 */
final class RunbookResumes {

    /** What became of a parked step's approval, read before the run is locked. */
    record ApprovalOutcome(Approvals.Approval approval, Optional<AuditQueries.Row> execution) {
    }

    private final Approvals approvals;
    private final AuditQueries audit;

    RunbookResumes(Approvals approvals, AuditQueries audit) {
        this.approvals = approvals;
        this.audit = audit;
    }

    /**
     * A {@code next} on a run awaiting approval, before its row is locked: only a {@code no} answer is taken
     * (it withdraws the request: the parked call must never run for a stopped run); the approval's outcome
     * is read unless the withdrawal took.
     */
    Optional<ApprovalOutcome> parked(Caller caller, Row peek, Optional<Answer> answer, Optional<String> reason) {
        RunbookSteps.mayAct(caller, peek);
        if (answer.filter(a -> a != Answer.NO).isPresent()) {
            throw RunbookErrors.APPROVAL_PENDING.error("step " + (peek.step() + 1) + "'s operation waits for approval "
                    + peek.approvalId().orElseThrow() + "; run next without an answer once it is decided (or answer "
                    + "no to stop the run and withdraw the request)", Map.of("approval_request_id",
                    peek.approvalId().orElseThrow().toString()));
        }
        if (answer.isPresent()) {
            boolean withdrawn = approvals.withdraw(caller, peek.approvalId().orElseThrow(), "runbook run " + peek.id()
                    + " stopped at step " + (peek.step() + 1) + reason.map(r -> ": " + r).orElse(""));
            return withdrawn ? Optional.empty() : Optional.of(outcome(peek)); // decided meanwhile: take that into account
        }
        return Optional.of(outcome(peek));
    }

    private ApprovalOutcome outcome(Row run) {
        Approvals.Approval a = approvals.show(run.tenantId(), run.approvalId().orElseThrow());
        return new ApprovalOutcome(a, a.executionAuditId().map(id -> audit.show(run.tenantId(), id)));
    }

    /**
     * The approval of a parked step: approved and run → executed; rejected or expired → the run stops.
     * Returns the terminal status it led to, if any.
     */
    static Optional<Status> refresh(Connection c, Caller caller, Row run, ApprovalOutcome outcome) throws SQLException {
        Approvals.Approval a = outcome.approval();
        UUID approvalId = a.id();
        switch (a.status()) {
            case "approved" -> {
                if (outcome.execution().isEmpty()) {
                    return Optional.empty(); // released but not yet executed (an async release)
                }
                AuditQueries.Row row = outcome.execution().get();
                Map<String, Object> result = new LinkedHashMap<>();
                result.put("status", row.resultStatus());
                row.errorCode().ifPresent(code -> result.put("error_code", code));
                result.put("audit_id", row.auditId().toString());
                result.put("approval_request_id", approvalId.toString());
                result.put("note", "run by the approval of " + a.decidedBy().orElse("an approver") + "; its result went to "
                        + "the approver (svc audit show " + row.auditId() + ")");
                checked(run, Status.IN_PROGRESS);
                checked(run, Phase.EXECUTED);
                RunbookRunStore.approvedAndRun(c, run.id(), result);
                RunbookRunStore.log(c, run.tenantId(), run.id(), run.step(), "approval", Optional.of("approved"), result,
                        caller.sub());
                return Optional.empty();
            }
            case "rejected", "expired" -> {
                String why = "the step's operation was not approved: approval " + approvalId + " " + a.status()
                        + a.reason().map(r -> " (" + r + ")").orElse("");
                RunbookRunStore.finish(c, run.id(), checked(run, Status.STOPPED), why);
                RunbookRunStore.log(c, run.tenantId(), run.id(), run.step(), "approval", Optional.of(a.status()),
                        Map.of("approval_request_id", approvalId.toString()), caller.sub());
                return Optional.of(Status.STOPPED);
            }
            default -> {
                return Optional.empty();
            }
        }
    }

    /** Another tenant_admin's answer to an escalated step: yes resumes the run, no stops it. */
    static Optional<Status> resolveEscalation(Connection c, Caller caller, Row run, RunbookTemplate t,
                                              Optional<Answer> answer, Optional<String> reason) throws SQLException {
        if (!caller.effectiveRole().includes(Role.TENANT_ADMIN)) {
            throw CommonErrors.INSUFFICIENT_ROLE.error("run " + run.id() + " is escalated: a tenant_admin answers it",
                    Map.of("required_role", "tenant_admin"));
        }
        if (caller.sub().equals(run.escalatedBy().orElse(run.assignee()))) {
            throw RunbookErrors.SAME_PERSON.error("you escalated this run; another tenant_admin answers it",
                    Map.of("escalated_by", run.escalatedBy().orElse(run.assignee())));
        }
        if (answer.isEmpty() || answer.get() == Answer.ESCALATE) {
            throw invalid("run " + run.id() + " is escalated: answer with verify_response yes (resume) or no (stop)",
                    "verify_response");
        }
        JsonNode step = t.stepList().get(run.step());
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("question", step.path("verify").asText());
        reason.ifPresent(r -> detail.put("reason", r));
        RunbookRunStore.log(c, run.tenantId(), run.id(), run.step(), "escalation_resolved", answer.map(Answer::wire),
                detail, caller.sub());
        if (answer.get() == Answer.NO) {
            RunbookRunStore.finish(c, run.id(), checked(run, Status.STOPPED), reason.orElse("stopped by " + caller.sub()
                    + " after escalation"));
            return Optional.of(Status.STOPPED);
        }
        if (run.phase() == Phase.EXECUTED || !step.has("operation")) {
            return RunbookSteps.advance(c, run, t);
        }
        checked(run, Status.IN_PROGRESS);
        RunbookRunStore.resume(c, run.id());
        return Optional.empty();
    }
}
