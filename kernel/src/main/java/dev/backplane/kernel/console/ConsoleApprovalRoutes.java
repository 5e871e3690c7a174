package dev.backplane.kernel.console;

import dev.backplane.kernel.audit.AuditQueries;
import dev.backplane.kernel.governance.ApprovalRoutes;
import dev.backplane.kernel.governance.Approvals;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code /ui/approvals}: the approver's inbox. Pending requests first (who asked, what, where, how long until they
 * expire), a request's page with the redacted params the API shows, its decision and its audit trail, and approve
 * or reject with a reason. The same {@link Approvals} methods as {@code POST /api/v1/approvals/{id}/approve|reject}
 * decide, so four-eyes holds exactly as in the API: the page withholds the approve button from whoever four-eyes
 * binds, and a forged POST is refused by the decision itself. An approved call runs in the background
 * (as REST's {@code async}); the page's live updates show its execution row when it ends.
 */
public final class ConsoleApprovalRoutes implements ConsoleRoutes.PageGroupRoutes {

    /** Requests per page of the list. */
    static final int PAGE_SIZE = 25;
    /** Audit rows the request's page lists. */
    static final int TRAIL_LIMIT = 50;
    /** The largest reason a form may carry (the API stores the text as given; the console bounds what it sends). */
    static final int MAX_REASON = 2000;
    static final List<String> FILTERS = List.of("pending", "approved", "rejected", "expired", "all");

    private final Approvals approvals;
    private final ApprovalRoutes.ParkedCallRunner runner;
    private final AuditQueries audit;
    private ConsoleRoutes console;

    public ConsoleApprovalRoutes(Approvals approvals, ApprovalRoutes.ParkedCallRunner runner, AuditQueries audit) {
        this.approvals = approvals;
        this.runner = runner;
        this.audit = audit;
    }

    @Override
    public void register(ConsoleRoutes console, HttpRouting.Builder routing) {
        this.console = console;
        console.page(routing, Method.GET, "/ui/approvals", Role.READ_ONLY, this::list);
        console.page(routing, Method.GET, "/ui/approvals/{id}", Role.READ_ONLY, (req, res, s, f) ->
                show(res, s, id(req), null));
        console.page(routing, Method.POST, "/ui/approvals/{id}/approve", Role.TENANT_ADMIN, this::approve);
        console.page(routing, Method.POST, "/ui/approvals/{id}/reject", Role.TENANT_ADMIN, this::reject);
    }

    private static UUID id(ServerRequest req) {
        return QueryParams.uuidPath(req, "id", Approvals::notFound);
    }

    private void list(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        UUID tenant = s.caller().tenantId();
        String status = req.query().first("status").orElse("pending");
        if (!FILTERS.contains(status)) {
            status = "pending";
        }
        int page = ConsoleForms.pageNumber(req.query().first("page").orElse("1"));
        List<Approvals.Approval> rows = approvals.list(tenant, status.equals("all") ? Optional.empty()
                : Optional.of(status), Optional.empty(), PAGE_SIZE + 1, (page - 1) * PAGE_SIZE);
        boolean more = rows.size() > PAGE_SIZE;
        int pending = status.equals("pending") && page == 1 && !more ? rows.size() : approvals.pendingCount(tenant);
        Instant now = Instant.now();
        console.render(res, Status.OK_200, "approvals.jte", new ConsolePages.ApprovalsPage(s.frame("Approvals"), status,
                (more ? rows.subList(0, PAGE_SIZE) : rows).stream().map(a -> row(a, now)).toList(), page, more, pending));
    }

    private void show(ServerResponse res, ConsoleRoutes.Signed s, UUID id, String notice) {
        Caller c = s.caller();
        Approvals.Approval a = approvals.show(c.tenantId(), id);
        boolean pending = a.status().equals("pending");
        boolean admin = c.effectiveRole().includes(Role.TENANT_ADMIN);
        Optional<String> bound = pending && admin ? approvals.fourEyesBound(c, id) : Optional.empty();
        Object params = a.resolved().getOrDefault("params", Map.of());
        console.render(res, Status.OK_200, "approval.jte", new ConsolePages.ApprovalPage(s.frame("Approval " + shortId(id)),
                row(a, Instant.now()), ConsoleText.pretty(params), pending && admin && bound.isEmpty(),
                pending && admin, bound.orElse(null), notice, c.effectiveRole().includes(Role.OPERATOR),
                // audit rows are an operator's read, as on REST (GET /api/v1/audit); read_only sees the request only
                c.effectiveRole().includes(Role.OPERATOR)
                        ? audit.approvalTrail(c.tenantId(), id, a.target(), a.createdAt(), TRAIL_LIMIT) : List.of()));
    }

    private void approve(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        UUID id = id(req);
        Approvals.Released released = approvals.approve(s.caller(), id, reason(f), false);
        Object run = runner.run(s.caller(), released, true);
        String handle = run instanceof dev.backplane.kernel.dispatch.AsyncRuns.Run r ? " as run " + r.handle() : "";
        show(res, s, id, "Approved. The call is running" + handle + "; its execution row appears in the trail below "
                + "when it ends.");
    }

    private void reject(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        UUID id = id(req);
        approvals.reject(s.caller(), id, reason(f));
        show(res, s, id, "Rejected. The parked call will not run.");
    }

    private static Optional<String> reason(Map<String, String> form) {
        Optional<String> reason = Optional.ofNullable(form.get("reason")).map(String::strip).filter(r -> !r.isEmpty());
        reason.ifPresent(r -> ConsoleForms.checkLength("reason", r, MAX_REASON));
        return reason;
    }

    static ConsolePages.ApprovalRow row(Approvals.Approval a, Instant now) {
        String safety = String.valueOf(a.resolved().getOrDefault("safety_level", "unknown"));
        String description = String.valueOf(a.resolved().getOrDefault("description", ""));
        String host = String.valueOf(a.resolved().getOrDefault("host", ""));
        String until = a.status().equals("pending") ? "expires " + ConsoleForms.relative(Duration.between(now,
                a.expiresAt())) : a.decidedAt().map(t -> a.status() + " " + ConsoleForms.relative(Duration.between(now, t)))
                .orElse(a.status());
        return new ConsolePages.ApprovalRow(a, a.requesterUsername().orElse(a.requester()),
                a.decidedByUsername().or(a::decidedBy).orElse(""), safety, description, host, until);
    }

    static String shortId(UUID id) {
        return id.toString().substring(0, 8);
    }
}
