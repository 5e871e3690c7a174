package dev.backplane.kernel.console;

import dev.backplane.kernel.agents.AgentRun;
import dev.backplane.kernel.audit.AuditQueries;
import dev.backplane.kernel.broadcast.BroadcastEvent;
import dev.backplane.kernel.catalog.CatalogViews;
import dev.backplane.kernel.catalog.OperationView;
import dev.backplane.kernel.dashboards.Dashboard;
import dev.backplane.kernel.governance.Approvals;
import dev.backplane.kernel.governance.ParkedFacts;
import dev.backplane.kernel.kb.KbService;
import dev.backplane.kernel.runbooks.RunbookRun;
import dev.backplane.kernel.scheduler.Automation;
import java.util.List;
import java.util.Map;

/**
 * What each console template renders: one record per page, built from the same service results
 * the REST routes send as JSON. Every text in them is escaped by the templates; only
 * {@link KbEntryPage#bodyHtml} is trusted markup, made by {@link Markdown}.
 */
public final class ConsolePages {

    private ConsolePages() {
    }

    /**
     * What the shared layout shows around every page.
     *
     * @param title the page title
     * @param user who is signed in
     * @param role the tenant role in force
     * @param tenant the tenant acted on
     * @param platformAdmin whether the user may switch tenant
     * @param csrf the session's CSRF token, echoed by every form
     * @param tenantName the tenant's display name, or null when its tenant_admin has set none
     */
    public record Frame(String title, String user, String role, String tenant, boolean platformAdmin, String csrf,
                        String tenantName) {
    }

    public record KbPage(Frame frame, String query, String metadata, List<KbService.Hit> hits,
                         List<KbService.Entry> entries, boolean canWrite) {
    }

    public record KbEntryPage(Frame frame, KbService.Entry entry, String metadata, String bodyHtml, boolean canWrite) {
    }

    /** The add/edit form; {@code error} is the envelope message of a refused save. */
    public record KbFormPage(Frame frame, String slug, String body, String metadata, boolean editing, String error) {
    }

    public record ConnectorsPage(Frame frame, String status, List<CatalogViews.ConnectorSummary> connectors,
                                 boolean canWrite) {
    }

    /**
     * A connector's review page; {@code search} is null until an operation search is asked for, {@code trail}
     * holds the latest review changes.
     */
    public record ConnectorPage(Frame frame, CatalogViews.Review review, String query, String group,
                                CatalogViews.SearchResult search, boolean canWrite, String notice,
                                List<AuditQueries.Row> trail) {
    }

    /** The per-operation override form. */
    public record OperationEditPage(Frame frame, String connectorId, OperationView operation) {
    }

    /** The spec ingest form; {@code values} refills it after a refusal shown as {@code error}. */
    public record IngestFormPage(Frame frame, Map<String, String> values, String error) {
        public String value(String field) {
            return values.getOrDefault(field, "");
        }
    }

    /**
     * An ingest's outcome: the finished result, or the job while it runs ({@code refresh} set: the page
     * reloads itself until the job is terminal).
     */
    public record IngestStatusPage(Frame frame, String title, Map<String, Object> status, String connectorId,
                                   String refresh) {
    }

    /** A confirmation step before a change: the form posts to {@code action}. */
    public record ConfirmPage(Frame frame, String question, String detail, String action, String button,
                              String cancelHref) {
    }

    /**
     * One approval request as the inbox shows it: the request, who asked and who decided (usernames where known),
     * the safety level, description and host the request was resolved to, and when it expires or was decided.
     */
    public record ApprovalRow(Approvals.Approval approval, String requester, String decider, String safety,
                              String description, String host, String when) {
        /** What the call would send, as recorded when it parked (null for requests parked before previews were). */
        public Map<String, Object> preview() {
            return ParkedFacts.of(approval).preview().orElse(null);
        }

        /** The preview's request line: method, path and query. */
        public String previewLine() {
            Map<String, Object> p = preview();
            Object query = p.get("query");
            String q = query instanceof Map<?, ?> m && !m.isEmpty() ? "?" + m.entrySet().stream().map(e -> e.getKey()
                    + "=" + (e.getValue() instanceof List<?> l ? String.join(",", l.stream().map(String::valueOf)
                    .toList()) : String.valueOf(e.getValue()))).collect(java.util.stream.Collectors.joining("&")) : "";
            return p.get("method") + " " + p.get("path") + q;
        }

        /** Who parked it as a kind ({@code human}, {@code agent}, ...), or null for requests parked before it was kept. */
        public String requesterKind() {
            return ParkedFacts.of(approval).requesterKind().orElse(null);
        }

        /** The audit session the call was parked in (an agent or runbook run), if any. */
        public String sessionId() {
            return ParkedFacts.of(approval).sessionId().orElse(null);
        }

        public String link() {
            return "/ui/approvals/" + approval.id();
        }

        public String shortId() {
            return approval.id().toString().substring(0, 8);
        }
    }

    /** The inbox: one page of requests of {@code status} ({@code all} for every status), and the pending count. */
    public record ApprovalsPage(Frame frame, String status, List<ApprovalRow> rows, int page, boolean hasNext,
                                int pendingCount) {
        public String pageLink(int n) {
            return "/ui/approvals?status=" + status + "&page=" + n;
        }
    }

    /**
     * A request's page. {@code canApprove}: a pending request and an approver four-eyes does not bind;
     * {@code canReject}: any tenant_admin while it is pending; {@code boundBecause} says why the approve button is
     * withheld; {@code params} is the redacted params as pretty JSON; {@code trail} its audit rows, oldest first
     * (shown when {@code showsTrail}: to operators and above, as REST's audit reads).
     */
    public record ApprovalPage(Frame frame, ApprovalRow row, String params, boolean canApprove, boolean canReject,
                               String boundBecause, String notice, boolean showsTrail, List<AuditQueries.Row> trail) {
    }

    /**
     * The home page: pending approvals for everyone; for operators and above, the dashboards' states, automations
     * whose last run failed and the latest activity (what the REST routes of each show them).
     */
    public record HomePage(Frame frame, int pendingApprovals, boolean operator, List<Dashboard> dashboards,
                           List<Automation> failing, List<BroadcastEvent> activity, Map<String, String> names) {
        /** A principal as people know it: its username where one was seen, else its subject. */
        public String name(String principal) {
            return names.getOrDefault(principal, principal);
        }
    }

    /**
     * The audit explorer: the filters, one page of rows (newest first), the link to the next page (null on the
     * last) and a filter the log refused ({@code code: message}, null when none).
     */
    public record AuditPage(Frame frame, AuditFilterForm form, List<AuditQueries.Row> rows, Map<String, String> names,
                            String nextLink, String error) {
        /** A principal as people know it: its username where one was seen, else its subject. */
        public String name(String principal) {
            return names.getOrDefault(principal, principal);
        }
    }

    /** One audit row in full: its extras as pretty JSON, and its composite children. */
    public record AuditRowPage(Frame frame, AuditQueries.Row row, String extras, List<AuditQueries.Row> children) {
    }

    /** One row of a session replay, {@code depth} levels below the session's top-level rows. */
    public record TimelineStep(int depth, Map<String, Object> row) {
        public String text(String key) {
            Object v = row.get(key);
            return v == null ? "" : String.valueOf(v);
        }
    }

    /** A session replayed as a timeline, oldest first, composite children under their parent. */
    public record AuditSessionPage(Frame frame, String session, List<TimelineStep> steps) {
    }

    /** Who touched {@code target} (empty before one is asked for): principal, calls, writes, last touch. */
    public record WhoTouchedPage(Frame frame, String target, List<Map<String, Object>> principals) {
    }

    /** The runs page: the latest agent runs and runbook runs of the tenant. */
    public record RunsPage(Frame frame, List<AgentRun> agentRuns, List<RunbookRun.Summary> runbookRuns) {
    }

    /** One event of an agent run, its payload as pretty JSON. */
    public record RunEvent(int seq, String kind, java.time.Instant at, String payload) {
    }

    /** An agent run: its record, its output as pretty JSON (null until it has one), its events, a notice. */
    public record AgentRunPage(Frame frame, AgentRun run, String output, List<RunEvent> events, String notice) {
        /** Whether the run may still be cancelled (it has not finished). */
        public boolean cancellable() {
            return !java.util.Set.of("succeeded", "failed", "cancelled").contains(run.status());
        }
    }

    /** A runbook run as the viewer may see it. */
    public record RunbookRunPage(Frame frame, RunbookRun run) {
    }

    /** Event sources (their API view, never a secret) and the latest events of the tenant. */
    public record EventsPage(Frame frame, List<Map<String, Object>> sources, List<Map<String, Object>> events,
                             boolean canWrite) {
    }

    /** The new-source form; {@code values} refill it after a refusal shown as {@code error} (never the secret). */
    public record EventSourceFormPage(Frame frame, Map<String, String> values, String error) {
        public String value(String field) {
            return values.getOrDefault(field, "");
        }
    }

    /** A secret shown once, on the answer to the form that set it; {@code generated} when the console made it. */
    public record ShownSecret(String value, boolean generated) {
        @Override
        public String toString() {
            return "ShownSecret[****]";
        }
    }

    /**
     * One source: its view, the URL senders post to, its latest events, and, once, the secret just set
     * ({@code secret} null on every other answer).
     */
    public record EventSourcePage(Frame frame, Map<String, Object> source, String ingestUrl,
                                  List<Map<String, Object>> events, boolean canWrite, String notice, ShownSecret secret) {
        public String field(String key) {
            Object v = source.get(key);
            return v == null ? "" : String.valueOf(v);
        }
    }

    /** One event: its summary fields, its normalised envelope as pretty JSON, the triggers that fired for it. */
    public record EventPage(Frame frame, Map<String, Object> event, String envelope,
                            List<dev.backplane.kernel.scheduler.Triggers.Fire> fires) {
        public String field(String key) {
            Object v = event.get(key);
            return v == null ? "" : String.valueOf(v);
        }
    }

    /** The topology page: what was asked, the part of the graph it found, a refusal ({@code code: message}) or null. */
    public record TopologyPage(Frame frame, TopologyQuery query, TopologyView view, String error) {
    }

    /** The approval notification settings of the tenant (as REST shows them), a notice or a refusal. */
    public record NotificationsPage(Frame frame, dev.backplane.kernel.notifications.NotificationSettings.View settings,
                                    String notice, String error) {
        public boolean wants(String event) {
            return settings.events().contains(event);
        }
    }

    /** The tenant's settings page: its name, a notice or a refusal ({@code code: message}). */
    public record SettingsPage(Frame frame, dev.backplane.kernel.tenancy.TenantView tenant, String notice,
                               String error) {
    }

    /** An error as the envelope has it; {@code frame} is null when nobody is signed in. */
    public record ErrorPage(Frame frame, int status, String code, String message) {
    }

    /** A page for someone not signed in (signed out, session expired). */
    public record MessagePage(String title, String message) {
    }
}
