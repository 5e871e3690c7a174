package dev.backplane.kernel.console;

import dev.backplane.kernel.audit.AuditQueries;
import dev.backplane.kernel.catalog.CatalogViews;
import dev.backplane.kernel.catalog.OperationView;
import dev.backplane.kernel.kb.KbService;
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
     */
    public record Frame(String title, String user, String role, String tenant, boolean platformAdmin, String csrf) {
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

    /** An error as the envelope has it; {@code frame} is null when nobody is signed in. */
    public record ErrorPage(Frame frame, int status, String code, String message) {
    }

    /** A page for someone not signed in (signed out, session expired). */
    public record MessagePage(String title, String message) {
    }
}
