package dev.backplane.kernel.runbooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.audit.AuditQueries;
import dev.backplane.kernel.broadcast.Activity;
import dev.backplane.kernel.broadcast.BroadcastFeed;
import dev.backplane.kernel.dispatch.CallRequest;
import dev.backplane.kernel.dispatch.OperationCalls;
import dev.backplane.kernel.dispatch.ResultEnvelope;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.governance.Approvals;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.persistence.FilteredSelect;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.targets.Target;
import dev.backplane.kernel.targets.TargetService;
import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.kernel.util.Paging;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;

/**
 * Runbook runs: a person (or an agent's operator) walks a published template step by step. A run only
 * ever shows its current step. {@code next} runs the step's governed operation through the dispatch
 * pipeline as the caller (the run id is the audit session, so {@code svc audit replay <run-id>} shows
 * its calls; approvals and audit as always), then takes the verification answer: {@code yes} moves to
 * the next step (or completes the run), {@code no} stops the run at that step with the reason,
 * {@code escalate} parks it for another tenant_admin, whose {@code yes} resumes it and {@code no}
 * stops it.
 *
 * <p>States: {@code in_progress} (current step pending or executed), {@code awaiting_approval} (the
 * step's operation parked; {@code next} checks the approval), {@code escalated}, and the terminal
 * {@code completed}, {@code stopped}, {@code aborted}.
 */
public final class RunbookRuns {

    public static final Paging.Size PAGE = new Paging.Size(100, 500);
    static final String IN_PROGRESS = "in_progress";
    static final String AWAITING_APPROVAL = "awaiting_approval";
    static final String ESCALATED = "escalated";
    static final String COMPLETED = "completed";
    static final String STOPPED = "stopped";
    static final String ABORTED = "aborted";
    private static final Set<String> STATUSES = Set.of(IN_PROGRESS, AWAITING_APPROVAL, ESCALATED, COMPLETED, STOPPED,
            ABORTED);
    private static final Set<String> FINISHED = Set.of(COMPLETED, STOPPED, ABORTED);
    private static final int MAX_INPUT = 1000;
    private static final int MAX_RESULT_CHARS = 32_768;
    static final String EXECUTING = "executing";
    /** Longer than any call may take (plugin call timeout plus the pipeline's own writes). */
    private static final java.time.Duration IN_FLIGHT_LIMIT = java.time.Duration.ofMinutes(15);

    /** A request to start a run ({@code svc runbook start}). */
    public record Start(String slug, Integer version, String target, Map<String, String> inputs, String workRef) {
    }

    /** A {@code next}: an optional verification answer, and its reason. */
    public record Next(String verifyResponse, String reason, Integer step) {
    }

    /** An {@code abort}: the reason is required. */
    public record Abort(String reason) {
    }

    private final Jdbc jdbc;
    private final RunbookTemplates templates;
    private final OperationCalls calls;
    private final TargetService targets;
    private final Approvals approvals;
    private final AuditQueries audit;
    private final BroadcastFeed broadcast;

    public RunbookRuns(Jdbc jdbc, RunbookTemplates templates, OperationCalls calls, TargetService targets,
                       Approvals approvals, AuditQueries audit, BroadcastFeed broadcast) {
        this.jdbc = jdbc;
        this.templates = templates;
        this.calls = calls;
        this.targets = targets;
        this.approvals = approvals;
        this.audit = audit;
        this.broadcast = broadcast;
    }

    public RunbookRun start(Caller caller, Start s) {
        if (s == null || s.slug() == null) {
            throw invalid("slug (the runbook template) is required", "slug");
        }
        RunbookTemplate t = templates.runnable(caller.tenantId(), s.slug(), Optional.ofNullable(s.version()));
        Map<String, String> inputs = inputs(t, s.inputs() == null ? Map.of() : s.inputs());
        Optional<String> target = Optional.ofNullable(s.target()).filter(v -> !v.isBlank());
        if (target.isEmpty()) {
            for (int i = 0; i < t.stepList().size(); i++) {
                if (t.stepList().get(i).has("operation")) {
                    throw invalid("target is required: step " + (i + 1) + " of '" + t.slug() + "' calls an operation",
                            "target");
                }
            }
        }
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
        jdbc.inTransaction(c -> {
            Jdbc.update(c, """
                    INSERT INTO runbook_runs (id, tenant_id, slug, version, target, inputs, work_ref, status, step, phase,
                           assignee) VALUES (?, ?, ?, ?, ?, ?, ?, 'in_progress', 0, 'pending', ?)""", id, caller.tenantId(),
                    t.slug(), t.version(), targetName.orElse(null), Jdbc.jsonb(inputs), s.workRef(), caller.sub());
            log(c, caller.tenantId(), id, 0, "started", Optional.empty(), Map.of("version", t.version()), caller.sub());
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
        Optional<String> answer = Optional.ofNullable(n == null ? null : n.verifyResponse()).filter(v -> !v.isBlank());
        Optional<String> reason = Optional.ofNullable(n == null ? null : n.reason()).filter(v -> !v.isBlank());
        answer.ifPresent(a -> {
            if (!List.of("yes", "no", "escalate").contains(a)) {
                throw invalid("verify_response must be yes, no or escalate, got '" + a + "'", "verify_response");
            }
        });
        reason.ifPresent(r -> checkReason(r));
        Optional<Integer> seen = Optional.ofNullable(n == null ? null : n.step());
        seen.filter(v -> v < 1).ifPresent(v -> {
            throw invalid("step must be the 1-based number of the step answered, got " + v, "step");
        });
        Row peek = read(caller.tenantId(), id);
        if (FINISHED.contains(peek.status())) {
            throw RunbookErrors.RUN_FINISHED.error("run " + id + " is " + peek.status(), Map.of("status", peek.status()));
        }
        seen.filter(v -> v != peek.step() + 1).ifPresent(v -> {
            throw RunbookErrors.STEP_CHANGED.error("the answer is for step " + v + ", but the run is at step "
                    + (peek.step() + 1) + "; show the run and answer again", Map.of("step", peek.step() + 1));
        });
        RunbookTemplate t = templates.show(caller.tenantId(), peek.slug(), Optional.of(peek.version()));
        JsonNode step = t.stepList().get(peek.step());
        Optional<ApprovalOutcome> approval = Optional.empty();
        if (peek.status().equals(AWAITING_APPROVAL)) {
            mayAct(caller, peek);
            if (answer.filter(a -> !a.equals("no")).isPresent()) {
                throw RunbookErrors.APPROVAL_PENDING.error("step " + (peek.step() + 1) + "'s operation waits for approval "
                        + peek.approvalId().orElseThrow() + "; run next without an answer once it is decided (or answer "
                        + "no to stop the run and withdraw the request)", Map.of("approval_request_id",
                        peek.approvalId().orElseThrow().toString()));
            }
            if (answer.isPresent()) {
                // no: the parked call must never run for a stopped run
                boolean withdrawn = approvals.withdraw(caller, peek.approvalId().orElseThrow(), "runbook run " + id
                        + " stopped at step " + (peek.step() + 1) + reason.map(r -> ": " + r).orElse(""));
                if (!withdrawn) {
                    approval = Optional.of(approvalOutcome(peek)); // decided meanwhile: take that into account
                }
            } else {
                approval = Optional.of(approvalOutcome(peek));
            }
        }
        Optional<ApprovalOutcome> decided = approval;
        String[] finished = {null};
        Row[] claimed = {null};
        jdbc.inTransaction(c -> {
            Row run = lockRow(c, caller.tenantId(), id);
            if (run.step() != peek.step() || !run.status().equals(peek.status()) || !run.phase().equals(peek.phase())) {
                throw RunbookErrors.STEP_CHANGED.error("run " + id + " moved on meanwhile (now " + run.status() + " at "
                        + "step " + (run.step() + 1) + "); show it and answer again", Map.of("step", run.step() + 1));
            }
            switch (run.status()) {
                case ESCALATED -> finished[0] = resolveEscalation(c, caller, run, t, answer, reason);
                case AWAITING_APPROVAL -> {
                    String refreshed = decided.isPresent() ? refreshApproval(c, caller, run, decided.get()) : null;
                    if (refreshed != null) {
                        finished[0] = refreshed; // rejected or expired: the run stopped; nothing is left to verify
                    } else if (answer.isPresent()) {
                        finished[0] = answer(c, caller, lockRow(c, caller.tenantId(), id), t, step, answer.get(), reason);
                    }
                }
                default -> {
                    mayAct(caller, run);
                    if (run.phase().equals(EXECUTING)) {
                        inFlight(c, caller, run);
                    } else if (answer.isEmpty()) {
                        if (step.has("operation") && run.phase().equals("pending")) {
                            // claimed here, called after this commit: no row lock or connection is held across the call
                            Jdbc.update(c, "UPDATE runbook_runs SET phase = 'executing', updated_at = now() WHERE id = ?",
                                    run.id());
                            claimed[0] = run;
                        }
                    } else {
                        finished[0] = answer(c, caller, run, t, step, answer.get(), reason);
                    }
                }
            }
            return null;
        });
        if (claimed[0] != null) {
            execute(caller, claimed[0], step);
        }
        RunbookRun after = show(caller, id);
        if (finished[0] != null) {
            publish(caller, after.slug(), id, finished[0], after.workRef(), after.target());
        }
        return after;
    }

    /** What became of a parked step's approval, read before the run is locked. */
    private record ApprovalOutcome(Approvals.Approval approval, Optional<AuditQueries.Row> execution) {
    }

    private ApprovalOutcome approvalOutcome(Row run) {
        Approvals.Approval a = approvals.show(run.tenantId(), run.approvalId().orElseThrow());
        return new ApprovalOutcome(a, a.executionAuditId().map(audit -> this.audit.show(run.tenantId(), audit)));
    }

    /** Ends a run that has not finished: its assignee or a tenant_admin, with a reason. */
    public RunbookRun abort(Caller caller, UUID id, Abort a) {
        String reason = a == null ? null : a.reason();
        if (reason == null || reason.isBlank()) {
            throw invalid("reason is required: why the run is aborted", "reason");
        }
        checkReason(reason);
        Row peek = read(caller.tenantId(), id);
        if (!FINISHED.contains(peek.status())) {
            mayAct(caller, peek);
            // a parked call of an aborted run must never run
            peek.approvalId().filter(parked -> peek.status().equals(AWAITING_APPROVAL)).ifPresent(parked ->
                    approvals.withdraw(caller, parked, "runbook run " + id + " aborted: " + reason));
        }
        jdbc.inTransaction(c -> {
            Row run = lockRow(c, caller.tenantId(), id);
            if (FINISHED.contains(run.status())) {
                throw RunbookErrors.RUN_FINISHED.error("run " + id + " is " + run.status(), Map.of("status", run.status()));
            }
            mayAct(caller, run);
            finish(c, run, ABORTED, reason);
            log(c, caller.tenantId(), id, run.step(), "aborted", Optional.empty(), Map.of("reason", reason), caller.sub());
            return null;
        });
        RunbookRun after = show(caller, id);
        publish(caller, after.slug(), id, ABORTED, after.workRef(), after.target());
        return after;
    }

    /** The run as {@code viewer} may see it: a step's result only to whoever ran the step (results are theirs). */
    public RunbookRun show(Caller viewer, UUID id) {
        UUID tenant = viewer.tenantId();
        Row run = read(tenant, id);
        RunbookTemplate t = templates.show(tenant, run.slug(), Optional.of(run.version()));
        List<Map<String, Object>> log = jdbc.query("SELECT * FROM runbook_run_log WHERE run_id = ? ORDER BY seq", rs -> {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("step", rs.getInt("step") + 1);
            e.put("action", rs.getString("action"));
            e.put("outcome", rs.getString("outcome"));
            e.put("detail", Jdbc.jsonObject(rs, "detail"));
            e.put("actor", rs.getString("actor"));
            e.put("at", rs.getTimestamp("at").toInstant());
            return e;
        }, id);
        return RunbookRun.of(run, t, log, viewer.sub());
    }

    private Row read(UUID tenant, UUID id) {
        return jdbc.queryOne("SELECT * FROM runbook_runs WHERE tenant_id = ? AND id = ?", Row::read, tenant, id)
                .orElseThrow(() -> notFound(id.toString()));
    }

    public List<RunbookRun.Summary> list(UUID tenant, Optional<String> status, Optional<String> slug, int limit,
                                         int offset) {
        Paging page = PAGE.checked(limit, offset);
        status.ifPresent(s -> {
            if (!STATUSES.contains(s)) {
                throw CommonErrors.INVALID_STATUS.error("status must be one of " + STATUSES.stream().sorted().toList()
                        + ", got '" + s + "'", Map.of("field", "status"));
            }
        });
        return new FilteredSelect("SELECT * FROM runbook_runs WHERE tenant_id = ?", tenant)
                .and("status = ?", status)
                .and("slug = ?", slug)
                .append(" ORDER BY started_at DESC, id LIMIT ? OFFSET ?", page.limit(), page.offset())
                .query(jdbc, rs -> RunbookRun.Summary.of(Row.read(rs)));
    }

    static DomainException notFound(String id) {
        return RunbookErrors.RUN_NOT_FOUND.error("no runbook run " + id + " in this tenant");
    }

    // ---- transitions (all on the run's locked row)

    /** Runs the step's operation through the pipeline as the caller, in the run's audit session. */
    private void execute(Caller caller, Row run, JsonNode step) {
        JsonNode op = step.path("operation");
        ResultEnvelope env;
        try {
            Map<String, Object> params = JsonMapping.mapper().convertValue(render(op.path("params"), run.inputs()),
                    JsonMapping.mapper().getTypeFactory().constructMapType(LinkedHashMap.class, String.class,
                            Object.class));
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
        jdbc.inTransaction(c -> {
            lockRow(c, run.tenantId(), run.id()); // an abort meanwhile writes its log entry first, this one after
            if (outcome.status().equals(ResultEnvelope.AWAITING_APPROVAL)) {
                String approval = String.valueOf(outcome.extras().get("approval_request_id"));
                detail.put("approval_request_id", approval);
                Jdbc.update(c, "UPDATE runbook_runs SET status = CASE WHEN status = 'in_progress' THEN 'awaiting_approval' "
                        + "ELSE status END, phase = 'pending', approval_id = ?, last_result = ?, updated_at = now() "
                        + "WHERE id = ? AND phase = 'executing'", UUID.fromString(approval), Jdbc.jsonb(stored(outcome, caller)),
                        run.id());
            } else {
                Jdbc.update(c, "UPDATE runbook_runs SET phase = 'executed', last_result = ?, updated_at = now() "
                        + "WHERE id = ? AND phase = 'executing'", Jdbc.jsonb(stored(outcome, caller)), run.id());
            }
            log(c, run.tenantId(), run.id(), run.step(), "operation", Optional.of(outcome.status()), detail, caller.sub());
            return null;
        });
    }

    /**
     * A {@code next} while the step's call is in flight: refused, unless the claim is so old that the
     * kernel making the call must have stopped — then the step is marked executed with an unknown
     * outcome (never called again: a governed write may not be safe to repeat; the audit log tells).
     */
    private void inFlight(Connection c, Caller caller, Row run) throws SQLException {
        if (run.updatedAt().isAfter(java.time.Instant.now().minus(IN_FLIGHT_LIMIT))) {
            throw RunbookErrors.STEP_IN_FLIGHT.error("step " + (run.step() + 1) + "'s operation is running; try again when "
                    + "it has answered", Map.of("step", run.step() + 1));
        }
        Map<String, Object> unknown = Map.of("status", "unknown", "note", "the call was started but its outcome was "
                + "never recorded (the kernel stopped?); it is not repeated - see svc audit replay " + run.id());
        Jdbc.update(c, "UPDATE runbook_runs SET phase = 'executed', last_result = ?, updated_at = now() WHERE id = ?",
                Jdbc.jsonb(unknown), run.id());
        log(c, run.tenantId(), run.id(), run.step(), "operation", Optional.of("unknown"), unknown, caller.sub());
    }

    /** The approval of a parked step: approved and run → executed; rejected or expired → the run stops. */
    private String refreshApproval(Connection c, Caller caller, Row run, ApprovalOutcome outcome) throws SQLException {
        Approvals.Approval a = outcome.approval();
        UUID approvalId = a.id();
        switch (a.status()) {
            case "approved" -> {
                if (outcome.execution().isEmpty()) {
                    return null; // released but not yet executed (an async release)
                }
                AuditQueries.Row row = outcome.execution().get();
                Map<String, Object> result = new LinkedHashMap<>();
                result.put("status", row.resultStatus());
                row.errorCode().ifPresent(code -> result.put("error_code", code));
                result.put("audit_id", row.auditId().toString());
                result.put("approval_request_id", approvalId.toString());
                result.put("note", "run by the approval of " + a.decidedBy().orElse("an approver") + "; its result went to "
                        + "the approver (svc audit show " + row.auditId() + ")");
                Jdbc.update(c, "UPDATE runbook_runs SET status = 'in_progress', phase = 'executed', last_result = ?, "
                        + "updated_at = now() WHERE id = ?", Jdbc.jsonb(result), run.id());
                log(c, run.tenantId(), run.id(), run.step(), "approval", Optional.of("approved"), result, caller.sub());
                return null;
            }
            case "rejected", "expired" -> {
                String why = "the step's operation was not approved: approval " + approvalId + " " + a.status()
                        + a.reason().map(r -> " (" + r + ")").orElse("");
                finish(c, run, STOPPED, why);
                log(c, run.tenantId(), run.id(), run.step(), "approval", Optional.of(a.status()),
                        Map.of("approval_request_id", approvalId.toString()), caller.sub());
                return STOPPED;
            }
            default -> {
                return null;
            }
        }
    }

    /** A verification answer on the current step. Returns the terminal status it led to, if any. */
    private String answer(Connection c, Caller caller, Row run, RunbookTemplate t, JsonNode step, String answer,
                          Optional<String> reason) throws SQLException {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("question", step.path("verify").asText());
        reason.ifPresent(r -> detail.put("reason", r));
        switch (answer) {
            case "yes" -> {
                if (step.has("operation") && run.phase().equals("pending")) {
                    throw RunbookErrors.STEP_NOT_RUN.error("step " + (run.step() + 1) + "'s operation has not run yet: "
                            + "run it with next (no answer), then verify", Map.of("step", run.step() + 1));
                }
                log(c, run.tenantId(), run.id(), run.step(), "verified", Optional.of("yes"), detail, caller.sub());
                return advance(c, run, t);
            }
            case "no" -> {
                String why = reason.orElse("verification failed: " + step.path("verify").asText());
                finish(c, run, STOPPED, why);
                log(c, run.tenantId(), run.id(), run.step(), "verified", Optional.of("no"), detail, caller.sub());
                return STOPPED;
            }
            default -> {
                Jdbc.update(c, "UPDATE runbook_runs SET status = 'escalated', escalated_by = ?, reason = ?, "
                        + "updated_at = now() WHERE id = ?", caller.sub(), reason.orElse("escalated at step "
                        + (run.step() + 1)), run.id());
                log(c, run.tenantId(), run.id(), run.step(), "escalated", Optional.of("escalate"), detail, caller.sub());
                return null;
            }
        }
    }

    /** Another tenant_admin's answer to an escalated step: yes resumes the run, no stops it. */
    private String resolveEscalation(Connection c, Caller caller, Row run, RunbookTemplate t, Optional<String> answer,
                                     Optional<String> reason) throws SQLException {
        if (!caller.effectiveRole().includes(Role.TENANT_ADMIN)) {
            throw CommonErrors.INSUFFICIENT_ROLE.error("run " + run.id() + " is escalated: a tenant_admin answers it",
                    Map.of("required_role", "tenant_admin"));
        }
        if (caller.sub().equals(run.escalatedBy().orElse(run.assignee()))) {
            throw RunbookErrors.SAME_PERSON.error("you escalated this run; another tenant_admin answers it",
                    Map.of("escalated_by", run.escalatedBy().orElse(run.assignee())));
        }
        if (answer.isEmpty() || answer.get().equals("escalate")) {
            throw invalid("run " + run.id() + " is escalated: answer with verify_response yes (resume) or no (stop)",
                    "verify_response");
        }
        JsonNode step = t.stepList().get(run.step());
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("question", step.path("verify").asText());
        reason.ifPresent(r -> detail.put("reason", r));
        log(c, run.tenantId(), run.id(), run.step(), "escalation_resolved", answer, detail, caller.sub());
        if (answer.get().equals("no")) {
            finish(c, run, STOPPED, reason.orElse("stopped by " + caller.sub() + " after escalation"));
            return STOPPED;
        }
        if (run.phase().equals("executed") || !step.has("operation")) {
            return advance(c, run, t);
        }
        Jdbc.update(c, "UPDATE runbook_runs SET status = 'in_progress', reason = NULL, updated_at = now() WHERE id = ?",
                run.id());
        return null;
    }

    private String advance(Connection c, Row run, RunbookTemplate t) throws SQLException {
        int next = run.step() + 1;
        if (next >= t.stepList().size()) {
            Jdbc.update(c, "UPDATE runbook_runs SET status = 'completed', phase = 'executed', reason = NULL, "
                    + "approval_id = NULL, updated_at = now(), finished_at = now() WHERE id = ?", run.id());
            return COMPLETED;
        }
        Jdbc.update(c, "UPDATE runbook_runs SET status = 'in_progress', step = ?, phase = 'pending', approval_id = NULL, "
                + "last_result = NULL, reason = NULL, updated_at = now() WHERE id = ?", next, run.id());
        return null;
    }

    private static void finish(Connection c, Row run, String status, String reason) throws SQLException {
        Jdbc.update(c, "UPDATE runbook_runs SET status = ?, reason = ?, updated_at = now(), finished_at = now() "
                + "WHERE id = ?", status, reason, run.id());
    }

    private static void mayAct(Caller caller, Row run) {
        if (!caller.sub().equals(run.assignee()) && !caller.effectiveRole().includes(Role.TENANT_ADMIN)) {
            throw RunbookErrors.NOT_ASSIGNEE.error("only the run's assignee (" + run.assignee() + ") or a tenant_admin "
                    + "may move run " + run.id(), Map.of("assignee", run.assignee()));
        }
    }

    private static void log(Connection c, UUID tenant, UUID run, int step, String action, Optional<String> outcome,
                            Map<String, ?> detail, String actor) throws SQLException {
        Jdbc.update(c, """
                INSERT INTO runbook_run_log (run_id, seq, tenant_id, step, action, outcome, detail, actor)
                VALUES (?, (SELECT coalesce(max(seq), 0) + 1 FROM runbook_run_log WHERE run_id = ?), ?, ?, ?, ?, ?, ?)""",
                run, run, tenant, step, action, outcome.orElse(null), Jdbc.jsonb(detail), actor);
    }

    private static Row lockRow(Connection c, UUID tenant, UUID id) throws SQLException {
        List<Row> rows = Jdbc.query(c, "SELECT * FROM runbook_runs WHERE tenant_id = ? AND id = ? FOR UPDATE", Row::read,
                tenant, id);
        if (rows.isEmpty()) {
            throw notFound(id.toString());
        }
        return rows.getFirst();
    }

    private void publish(Caller caller, String slug, UUID id, String status, Optional<String> workRef,
                         Optional<String> target) {
        broadcast.publish(Activity.of(caller.tenantId(), Activity.Kind.RUN, "runbook " + slug + " " + status, caller.sub(),
                caller.sub(), Optional.of(status)).withPhase(status.equals("started") ? "start" : "completion")
                .withTarget(target).withWork(workRef, Optional.of(id.toString())));
    }

    // ---- inputs and placeholders

    private static Map<String, String> inputs(RunbookTemplate t, Map<String, String> given) {
        Set<String> declared = RunbookYaml.inputNames(t.definition());
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : given.entrySet()) {
            if (!declared.contains(e.getKey())) {
                throw invalid("runbook '" + t.slug() + "' has no input '" + e.getKey() + "' (declared: "
                        + declared.stream().sorted().toList() + ")", "inputs");
            }
            String v = e.getValue();
            if (v == null || v.length() > MAX_INPUT || v.chars().anyMatch(ch -> ch < 0x20 && ch != '\t')) {
                throw invalid("input '" + e.getKey() + "' must be up to " + MAX_INPUT + " characters without control "
                        + "characters", "inputs");
            }
            out.put(e.getKey(), v);
        }
        for (JsonNode input : t.definition().path("inputs")) {
            String name = input.path("name").asText();
            if (!out.containsKey(name)) {
                if (input.hasNonNull("default")) {
                    out.put(name, input.path("default").asText());
                } else if (input.path("required").asBoolean(true)) {
                    throw invalid("input '" + name + "' is required" + (input.has("description") ? " ("
                            + input.path("description").asText() + ")" : ""), "inputs");
                }
            }
        }
        return out;
    }

    /** {@code {{input.<name>}}} replaced by the run's value in every string of {@code node}. */
    static JsonNode render(JsonNode node, Map<String, String> inputs) {
        if (node.isMissingNode() || node.isNull()) {
            return JsonMapping.mapper().createObjectNode();
        }
        if (node.isTextual()) {
            return JsonMapping.mapper().getNodeFactory().textNode(renderText(node.asText(), inputs));
        }
        if (node.isObject()) {
            ObjectNode o = JsonMapping.mapper().createObjectNode();
            node.properties().forEach(e -> o.set(e.getKey(), render(e.getValue(), inputs)));
            return o;
        }
        if (node.isArray()) {
            var a = JsonMapping.mapper().createArrayNode();
            node.forEach(v -> a.add(render(v, inputs)));
            return a;
        }
        return node;
    }

    static String renderText(String text, Map<String, String> inputs) {
        Matcher m = RunbookYaml.PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(inputs.getOrDefault(m.group(1), "")));
        }
        m.appendTail(out);
        return out.toString();
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

    private static void checkReason(String reason) {
        if (reason.length() > 1000 || reason.chars().anyMatch(ch -> ch < 0x20 && ch != '\t' && ch != '\n')) {
            throw invalid("reason must be up to 1000 characters without control characters", "reason");
        }
    }

    private static DomainException invalid(String message, String field) {
        return RunbookErrors.INVALID_RUN.error(message, Map.of("field", field));
    }

    /** A run row. */
    record Row(UUID id, UUID tenantId, String slug, int version, Optional<String> target, Map<String, String> inputs,
               Optional<String> workRef, String status, int step, String phase, Optional<UUID> approvalId,
               JsonNode lastResult, String assignee, Optional<String> escalatedBy, Optional<String> reason,
               java.time.Instant startedAt,
               java.time.Instant updatedAt, Optional<java.time.Instant> finishedAt) {

        static Row read(java.sql.ResultSet rs) throws SQLException {
            Map<String, String> inputs = new LinkedHashMap<>();
            Jdbc.jsonObject(rs, "inputs").forEach((k, v) -> inputs.put(k, String.valueOf(v)));
            java.sql.Timestamp finished = rs.getTimestamp("finished_at");
            return new Row(rs.getObject("id", UUID.class), rs.getObject("tenant_id", UUID.class), rs.getString("slug"),
                    rs.getInt("version"), Optional.ofNullable(rs.getString("target")), inputs,
                    Optional.ofNullable(rs.getString("work_ref")), rs.getString("status"), rs.getInt("step"),
                    rs.getString("phase"), Optional.ofNullable(rs.getObject("approval_id", UUID.class)),
                    Jdbc.jsonTree(rs, "last_result"), rs.getString("assignee"),
                    Optional.ofNullable(rs.getString("escalated_by")), Optional.ofNullable(rs.getString("reason")),
                    rs.getTimestamp("started_at").toInstant(), rs.getTimestamp("updated_at").toInstant(),
                    Optional.ofNullable(finished).map(java.sql.Timestamp::toInstant));
        }
    }
}
