package dev.backplane.kernel.runbooks;

import static dev.backplane.kernel.runbooks.RunbookInputs.invalid;
import static dev.backplane.kernel.runbooks.RunbookSteps.checked;
import static dev.backplane.kernel.runbooks.RunbookSteps.mayAct;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.audit.AuditQueries;
import dev.backplane.kernel.broadcast.Activity;
import dev.backplane.kernel.broadcast.BroadcastFeed;
import dev.backplane.kernel.dispatch.OperationCalls;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.governance.Approvals;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.runbooks.RunbookNext.Move;
import dev.backplane.kernel.runbooks.RunbookNext.Request;
import dev.backplane.kernel.runbooks.RunbookResumes.ApprovalOutcome;
import dev.backplane.kernel.runbooks.RunbookRun.Status;
import dev.backplane.kernel.runbooks.RunbookRunStore.Row;
import dev.backplane.kernel.targets.Target;
import dev.backplane.kernel.targets.TargetService;
import dev.backplane.kernel.util.Paging;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Runbook runs: a person (or an agent's operator) walks a published template step by step. A run only
 * ever shows its current step. {@code next} runs the step's governed operation through the dispatch
 * pipeline as the caller (the run id is the audit session, so {@code svc audit replay <run-id>} shows
 * its calls; approvals and audit as always), then takes the verification answer: {@code yes} moves to
 * the next step (or completes the run), {@code no} stops the run at that step with the reason,
 * {@code escalate} parks it for another tenant_admin, whose {@code yes} resumes it and {@code no}
 * stops it.
 *
 * <p>States ({@link Status}): {@code in_progress} (current step pending or executed), {@code
 * awaiting_approval} (the step's operation parked; {@code next} checks the approval), {@code escalated},
 * and the terminal {@code completed}, {@code stopped}, {@code aborted}. A {@code next}'s rules are
 * {@link RunbookNext}'s, the step's moves {@link RunbookSteps}'s, approvals and escalations
 * {@link RunbookResumes}'s, the SQL {@link RunbookRunStore}'s.
 */
public final class RunbookRuns {

    public static final Paging.Size PAGE = new Paging.Size(100, 500);

    /** A request to start a run ({@code svc runbook start}). */
    public record Start(String slug, Integer version, String target, Map<String, String> inputs, String workRef) {
    }

    /** A {@code next}: an optional verification answer, and its reason. */
    public record Next(String verifyResponse, String reason, Integer step) {
    }

    /** An {@code abort}: the reason is required. */
    public record Abort(String reason) {
    }

    private final RunbookRunStore store;
    private final RunbookTemplates templates;
    private final RunbookSteps steps;
    private final RunbookResumes resumes;
    private final TargetService targets;
    private final Approvals approvals;
    private final BroadcastFeed broadcast;

    public RunbookRuns(Jdbc jdbc, RunbookTemplates templates, OperationCalls calls, TargetService targets,
                       Approvals approvals, AuditQueries audit, BroadcastFeed broadcast) {
        this.store = new RunbookRunStore(jdbc);
        this.templates = templates;
        this.steps = new RunbookSteps(store, calls);
        this.resumes = new RunbookResumes(approvals, audit);
        this.targets = targets;
        this.approvals = approvals;
        this.broadcast = broadcast;
    }

    public RunbookRun start(Caller caller, Start s) {
        if (s == null || s.slug() == null) {
            throw invalid("slug (the runbook template) is required", "slug");
        }
        RunbookTemplate t = templates.runnable(caller.tenantId(), s.slug(), Optional.ofNullable(s.version()));
        Map<String, String> inputs = RunbookInputs.inputs(t, s.inputs() == null ? Map.of() : s.inputs());
        Optional<String> target = RunbookInputs.target(t, s.target());
        Optional<String> targetName = target.map(name -> {
            Target found = targets.describe(caller.tenantId(), name);
            t.targetKind().filter(kind -> !kind.equals(found.product())).ifPresent(kind -> {
                throw RunbookErrors.TARGET_KIND_MISMATCH.error("runbook '" + t.slug() + "' is for " + kind + " targets; "
                        + found.name() + " is a " + found.product() + " target", Map.of("target_kind", kind,
                        "product", found.product()));
            });
            return found.name();
        });
        if (s.workRef() != null && (s.workRef().length() > 256 || s.workRef().isBlank())) {
            throw invalid("work_ref must be 1..256 characters", "work_ref");
        }
        UUID id = UUID.randomUUID();
        store.inTransaction(c -> {
            RunbookRunStore.insert(c, id, caller.tenantId(), t.slug(), t.version(), targetName, inputs, s.workRef(),
                    caller.sub());
            RunbookRunStore.log(c, caller.tenantId(), id, 0, "started", Optional.empty(), Map.of("version", t.version()),
                    caller.sub());
            return null;
        });
        publish(caller, t.slug(), id, "started", Optional.ofNullable(s.workRef()), targetName);
        return show(caller, id);
    }

    /**
     * Moves the run on: runs the current step's operation, or takes its verification answer. What other
     * capabilities know (the template, the approval and its execution) is read before the run's row is
     * locked, and the locked row must still be where it was read — so no pooled connection is taken while
     * the lock is held, and an answer never lands on a step its author did not see.
     */
    public RunbookRun next(Caller caller, UUID id, Next n) {
        Request r = Request.of(n);
        Row peek = read(caller.tenantId(), id);
        r.checkAgainst(peek);
        RunbookTemplate t = templates.show(caller.tenantId(), peek.slug(), Optional.of(peek.version()));
        JsonNode step = t.stepList().get(peek.step());
        Optional<ApprovalOutcome> decided = peek.status() == Status.AWAITING_APPROVAL
                ? resumes.parked(caller, peek, r.answer(), r.reason()) : Optional.empty();
        Move move = store.inTransaction(c -> RunbookNext.underLock(c, caller, id, peek, t, step, r, decided));
        move.claimed().ifPresent(run -> steps.execute(caller, run, step));
        RunbookRun after = show(caller, id);
        move.finished().ifPresent(status -> publish(caller, after.slug(), id, status.wire(), after.workRef(),
                after.target()));
        return after;
    }

    /** Ends a run that has not finished: its assignee or a tenant_admin, with a reason. */
    public RunbookRun abort(Caller caller, UUID id, Abort a) {
        String reason = a == null ? null : a.reason();
        if (reason == null || reason.isBlank()) {
            throw invalid("reason is required: why the run is aborted", "reason");
        }
        RunbookInputs.checkReason(reason);
        Row peek = read(caller.tenantId(), id);
        if (!peek.status().finished()) {
            mayAct(caller, peek);
            // a parked call of an aborted run must never run
            peek.approvalId().filter(parked -> peek.status() == Status.AWAITING_APPROVAL).ifPresent(parked ->
                    approvals.withdraw(caller, parked, "runbook run " + id + " aborted: " + reason));
        }
        store.inTransaction(c -> {
            Row run = RunbookSteps.locked(c, caller.tenantId(), id);
            if (run.status().finished()) {
                throw finished(id, run.status());
            }
            mayAct(caller, run);
            RunbookRunStore.finish(c, run.id(), checked(run, Status.ABORTED), reason);
            RunbookRunStore.log(c, caller.tenantId(), id, run.step(), "aborted", Optional.empty(),
                    Map.of("reason", reason), caller.sub());
            return null;
        });
        RunbookRun after = show(caller, id);
        publish(caller, after.slug(), id, Status.ABORTED.wire(), after.workRef(), after.target());
        return after;
    }

    /** The run as {@code viewer} may see it: a step's result only to whoever ran the step (results are theirs). */
    public RunbookRun show(Caller viewer, UUID id) {
        UUID tenant = viewer.tenantId();
        Row run = read(tenant, id);
        RunbookTemplate t = templates.show(tenant, run.slug(), Optional.of(run.version()));
        return RunbookRun.of(run, t, store.log(id), viewer.sub());
    }

    public List<RunbookRun.Summary> list(UUID tenant, Optional<String> status, Optional<String> slug, int limit,
                                         int offset) {
        Paging page = PAGE.checked(limit, offset);
        Optional<Status> wanted = status.map(s -> Status.parse(s).orElseThrow(() -> CommonErrors.INVALID_STATUS.error(
                "status must be one of " + Status.wireNames() + ", got '" + s + "'", Map.of("field", "status"))));
        return store.list(tenant, wanted, slug, page).stream().map(RunbookRun.Summary::of).toList();
    }

    static DomainException notFound(String id) {
        return RunbookErrors.RUN_NOT_FOUND.error("no runbook run " + id + " in this tenant");
    }

    private Row read(UUID tenant, UUID id) {
        return store.find(tenant, id).orElseThrow(() -> notFound(id.toString()));
    }

    static DomainException finished(UUID id, Status status) {
        return RunbookErrors.RUN_FINISHED.error("run " + id + " is " + status.wire(), Map.of("status", status.wire()));
    }

    private void publish(Caller caller, String slug, UUID id, String status, Optional<String> workRef,
                         Optional<String> target) {
        broadcast.publish(Activity.of(caller.tenantId(), Activity.Kind.RUN, "runbook " + slug + " " + status, caller.sub(),
                caller.sub(), Optional.of(status)).withPhase(status.equals("started") ? "start" : "completion")
                .withTarget(target).withWork(workRef, Optional.of(id.toString())));
    }
}
