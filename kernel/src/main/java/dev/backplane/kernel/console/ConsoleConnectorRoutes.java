package dev.backplane.kernel.console;

import dev.backplane.kernel.audit.AuditQueries;
import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.catalog.CatalogViews;
import dev.backplane.kernel.catalog.OperationView;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.retrieval.SearchLog;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /ui/connectors}: the list with review status (broken plugins with their reason), a connector's
 * groups and operations with the hybrid operation search, enable / disable / enable-reads behind a
 * confirmation step, per-operation overrides, and the connector's review trail from the audit log.
 * Changes go through {@link CatalogService} exactly as the REST review routes do, with the same audit rows.
 */
public final class ConsoleConnectorRoutes implements ConsoleRoutes.PageGroupRoutes {

    /** A review action: its REST route, its confirmation text, its button. */
    private enum Action {
        ENABLE("enable", "Enable", "Its enabled operations become dispatchable for this tenant."),
        DISABLE("disable", "Disable", "No operation of it is dispatchable until it is enabled again; per-operation "
                + "overrides are kept."),
        ENABLE_READS("enable-reads", "Enable reads", "Every read-class (GET/HEAD) operation is enabled; writes stay "
                + "default-deny. The connector's status does not change.");

        final String path;
        final String button;
        final String detail;

        Action(String path, String button, String detail) {
            this.path = path;
            this.button = button;
            this.detail = detail;
        }
    }

    /** How many review changes the connector page lists. */
    static final int TRAIL_LIMIT = 50;

    private final CatalogService catalog;
    private final AuditQueries audit;
    private ConsoleRoutes console;

    public ConsoleConnectorRoutes(CatalogService catalog, AuditQueries audit) {
        this.catalog = catalog;
        this.audit = audit;
    }

    @Override
    public void register(ConsoleRoutes console, HttpRouting.Builder routing) {
        this.console = console;
        console.page(routing, Method.GET, "/ui/connectors", Role.READ_ONLY, this::list);
        console.page(routing, Method.GET, "/ui/connectors/{connector_id}", Role.READ_ONLY, (req, res, s, f) ->
                review(req, res, s, null));
        for (Action a : Action.values()) {
            String path = "/ui/connectors/{connector_id}/" + a.path;
            console.page(routing, Method.GET, path, Role.TENANT_ADMIN, (req, res, s, f) -> confirm(req, res, s, a));
            console.page(routing, Method.POST, path, Role.TENANT_ADMIN, (req, res, s, f) -> apply(req, res, s, a));
        }
        String operation = "/ui/connectors/{connector_id}/operations/{op_id}";
        console.page(routing, Method.GET, operation, Role.TENANT_ADMIN, (req, res, s, f) ->
                console.render(res, Status.OK_200, "opEdit.jte", new ConsolePages.OperationEditPage(
                        s.frame(opId(req)), id(req), catalog.effective(s.caller().tenantId(), id(req), opId(req)).view())));
        console.page(routing, Method.POST, operation, Role.TENANT_ADMIN, this::editOperation);
    }

    private static String id(ServerRequest req) {
        return req.path().pathParameters().get("connector_id");
    }

    private static String opId(ServerRequest req) {
        return req.path().pathParameters().get("op_id");
    }

    private void list(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        String status = req.query().first("status").orElse("all");
        console.render(res, Status.OK_200, "connectors.jte", new ConsolePages.ConnectorsPage(s.frame("Connectors"),
                status, catalog.list(s.caller().tenantId(), Optional.of(status)),
                s.caller().effectiveRole().includes(Role.TENANT_ADMIN)));
    }

    private void review(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, String notice) {
        Caller c = s.caller();
        String id = id(req);
        CatalogViews.Review review = catalog.review(c.tenantId(), id);
        String query = req.query().first("q").orElse("").trim();
        String group = req.query().first("group").orElse("");
        CatalogViews.SearchResult search = query.isEmpty() ? null : catalog.search(c, SearchLog.Transport.REST, id,
                query, group.isEmpty() ? Optional.empty() : Optional.of(group), CatalogService.SEARCH_LIMIT_DEFAULT);
        console.render(res, Status.OK_200, "connector.jte", new ConsolePages.ConnectorPage(s.frame(id), review, query,
                group, search, c.effectiveRole().includes(Role.TENANT_ADMIN), notice,
                audit.connectorReviewTrail(c.tenantId(), id, TRAIL_LIMIT)));
    }

    private void confirm(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Action a) {
        String id = id(req);
        CatalogViews.Review review = catalog.review(s.caller().tenantId(), id);
        String question = a.button + " " + id + "? (now " + review.connector().status() + ", "
                + review.connector().enabledOpCount() + " of " + review.connector().operationCount()
                + " operations enabled)";
        console.render(res, Status.OK_200, "confirm.jte", new ConsolePages.ConfirmPage(s.frame(a.button + " " + id),
                question, a.detail, ConsoleLinks.connector(id) + "/" + a.path, a.button, ConsoleLinks.connector(id)));
    }

    private void apply(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Action a) {
        Caller c = s.caller();
        String id = id(req);
        CatalogViews.ReviewChange change = switch (a) {
            case ENABLE -> catalog.enable(c.tenantId(), id, c.sub());
            case DISABLE -> catalog.disable(c.tenantId(), id, c.sub());
            case ENABLE_READS -> catalog.enableReads(c.tenantId(), id, c.sub());
        };
        console.audited(c, "POST /api/v1/connectors/{connector_id}/" + a.path, Map.of("connector_id", id),
                Optional.empty(), 200);
        review(req, res, s, change.message());
    }

    /**
     * Saves what the form changed, and only that (an untouched field stays the connector's default rather than
     * becoming an override equal to it), as {@code PATCH .../operations/{op_id}} would.
     */
    private void editOperation(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        Caller c = s.caller();
        String id = id(req);
        String opId = opId(req);
        OperationView now = catalog.effective(c.tenantId(), id, opId).view();
        Optional<Boolean> enabled = changed(bool(f, "is_enabled"), now.isEnabled());
        Optional<Boolean> approval = changed(bool(f, "requires_approval"), now.requiresApproval());
        Optional<String> safety = changed(Optional.ofNullable(f.get("safety_level")), now.safetyLevel());
        Optional<String> description = changed(Optional.ofNullable(f.get("custom_description")).map(String::strip),
                now.customDescription().orElse(""));
        if (enabled.isEmpty() && approval.isEmpty() && safety.isEmpty() && description.isEmpty()) {
            review(req, res, s, "No change: " + opId + " already has these settings.");
            return;
        }
        catalog.editOperation(c.tenantId(), id, opId, description, safety, approval, enabled, c.sub());
        Map<String, Object> sent = new LinkedHashMap<>();
        description.ifPresent(v -> sent.put("custom_description", v));
        safety.ifPresent(v -> sent.put("safety_level", v));
        approval.ifPresent(v -> sent.put("requires_approval", v));
        enabled.ifPresent(v -> sent.put("is_enabled", v));
        console.audited(c, "PATCH /api/v1/connectors/{connector_id}/operations/{op_id}",
                Map.of("connector_id", id, "op_id", opId), Optional.of(JsonMapping.mapper().valueToTree(sent)), 200);
        review(req, res, s, "Saved the overrides of " + opId + ".");
    }

    private static <T> Optional<T> changed(Optional<T> asked, T current) {
        return asked.filter(v -> !v.equals(current));
    }

    private static Optional<Boolean> bool(Map<String, String> form, String field) {
        String v = form.get(field);
        if (v == null) {
            return Optional.empty();
        }
        if (!v.equals("true") && !v.equals("false")) {
            throw CommonErrors.INVALID_REQUEST.error(field + " must be true or false", Map.of("field", field));
        }
        return Optional.of(Boolean.parseBoolean(v));
    }
}
