package dev.backplane.kernel.console;

import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditErrors;
import dev.backplane.kernel.audit.AuditExport;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.audit.AuditQueries;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import io.helidon.http.HeaderNames;
import io.helidon.http.HttpMediaType;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BiFunction;

/**
 * {@code /ui/audit}: the audit explorer for operators and above (as {@code GET /api/v1/audit}). A filtered page of
 * rows (time, principal, target, operation, work_ref, session, status, class), a row's full record with its parent,
 * its composite children and its approval request, a session's replay as a timeline (an agent or runbook run from
 * start to end), who touched a target, and the filtered view exported as CSV or JSON. Every read is audited exactly
 * as its REST twin ({@code svc.audit.query}, {@code .show}, {@code .replay}, {@code .who_touched}), the export as
 * {@code svc.audit.export} with its format and row count.
 */
public final class ConsoleAuditRoutes implements ConsoleRoutes.PageGroupRoutes {

    /** Rows per page of the explorer. */
    static final int PAGE_SIZE = 50;
    /** Composite children a row's page lists. */
    static final int CHILDREN = 200;
    /** Depth of a session replay's tree. */
    static final int REPLAY_DEPTH = 20;

    private final AuditQueries queries;
    private final AuditLog log;
    private final BiFunction<Caller, String, String> targetName;
    private ConsoleRoutes console;

    /** @param targetName a target name or alias as the caller's tenant names it in the log (unknown names pass) */
    public ConsoleAuditRoutes(AuditQueries queries, AuditLog log, BiFunction<Caller, String, String> targetName) {
        this.queries = queries;
        this.log = log;
        this.targetName = targetName;
    }

    @Override
    public void register(ConsoleRoutes console, HttpRouting.Builder routing) {
        this.console = console;
        console.page(routing, Method.GET, "/ui/audit", Role.OPERATOR, this::explore);
        console.page(routing, Method.GET, "/ui/audit/export", Role.OPERATOR, this::export);
        console.page(routing, Method.GET, "/ui/audit/who-touched", Role.OPERATOR, this::whoTouched);
        console.page(routing, Method.GET, "/ui/audit/sessions/{session_id}", Role.OPERATOR, this::replay);
        console.page(routing, Method.GET, "/ui/audit/rows/{audit_id}", Role.OPERATOR, this::row);
    }

    private void explore(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        AuditFilterForm form = AuditFilterForm.of(name -> req.query().first(name).asOptional());
        Caller c = s.caller();
        AuditQueries.Page page;
        String error = null;
        try {
            page = queries.query(c.tenantId(), form.filter(name -> targetName.apply(c, name)),
                    form.cursor(), PAGE_SIZE);
            audited(c, "svc.audit.query", Map.of());
        } catch (DomainException e) {
            // a filter the log refuses (an unreadable time, an unknown status) is shown beside the form it came from
            page = new AuditQueries.Page(List.of(), Optional.empty());
            error = e.code() + ": " + e.getMessage();
        }
        console.render(res, Status.OK_200, "audit.jte", new ConsolePages.AuditPage(s.frame("Audit"), form, page.rows(),
                queries.usernames(page.rows()), page.nextCursor().map(form::withCursor).orElse(null), error));
    }

    private void row(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        Caller c = s.caller();
        UUID id = QueryParams.uuidPath(req, "audit_id", text -> AuditErrors.AUDIT_ROW_NOT_FOUND.error("no audit row "
                + text));
        AuditQueries.Row row = queries.show(c.tenantId(), id);
        List<AuditQueries.Row> children = queries.query(c.tenantId(), AuditFilterForm.children(id), Optional.empty(),
                CHILDREN).rows();
        audited(c, "svc.audit.show", Map.of("audit_id", id.toString()));
        console.render(res, Status.OK_200, "auditRow.jte", new ConsolePages.AuditRowPage(s.frame("Audit row "
                + id.toString().substring(0, 8)), row, ConsoleText.pretty(row.extras()), children));
    }

    private void replay(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        Caller c = s.caller();
        UUID session = QueryParams.uuidPath(req, "session_id", text -> AuditErrors.INVALID_SESSION.error(
                "session id must be a uuid", Map.of("field", "session_id")));
        List<ConsolePages.TimelineStep> steps = new ArrayList<>();
        flatten(queries.replay(c.tenantId(), session, REPLAY_DEPTH), 0, steps);
        audited(c, "svc.audit.replay", Map.of("session_id", session.toString()));
        console.render(res, Status.OK_200, "auditSession.jte", new ConsolePages.AuditSessionPage(
                s.frame("Session " + session.toString().substring(0, 8)), session.toString(), steps));
    }

    private void whoTouched(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        Caller c = s.caller();
        String asked = req.query().first("target").orElse("").strip();
        List<Map<String, Object>> touched = List.of();
        String target = asked;
        if (!asked.isEmpty()) {
            target = targetName.apply(c, asked);
            touched = queries.whoTouched(c.tenantId(), target);
            audited(c, "svc.audit.who_touched", Map.of("target", target));
        }
        console.render(res, Status.OK_200, "whoTouched.jte", new ConsolePages.WhoTouchedPage(s.frame("Who touched"),
                target, touched));
    }

    /**
     * The filtered view as a download: every matching row up to {@link AuditExport#MAX_ROWS}, newest first, as CSV
     * (RFC 4180; a cell a spreadsheet would run as a formula is prefixed with {@code '}) or as JSON.
     */
    private void export(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        Caller c = s.caller();
        AuditFilterForm form = AuditFilterForm.of(name -> req.query().first(name).asOptional());
        String format = req.query().first("format").orElse("csv");
        AuditExport export = AuditExport.of(format);
        List<AuditQueries.Row> rows = export.collect(cursor -> queries.query(c.tenantId(),
                form.filter(name -> targetName.apply(c, name)), cursor, 1000));
        audited(c, "svc.audit.export", Map.of("format", format, "rows", rows.size(), "filter", form.asMap()));
        res.status(Status.OK_200);
        res.headers().contentType(HttpMediaType.create(export.contentType()));
        res.header(HeaderNames.CONTENT_DISPOSITION, "attachment; filename=\"audit-" + c.tenantId() + "."
                + format + "\"");
        res.send(export.write(rows));
    }

    private void audited(Caller caller, String opId, Map<String, Object> extras) {
        log.record(AuditLog.Entry.by(caller, AuditClass.AUDIT_QUERY, opId), "ok", Optional.empty(), Optional.empty(),
                extras);
    }

    @SuppressWarnings("unchecked")
    private static void flatten(List<Map<String, Object>> nodes, int depth, List<ConsolePages.TimelineStep> out) {
        for (Map<String, Object> n : nodes) {
            out.add(new ConsolePages.TimelineStep(depth, n));
            flatten((List<Map<String, Object>>) n.getOrDefault("children", List.of()), depth + 1, out);
        }
    }
}
