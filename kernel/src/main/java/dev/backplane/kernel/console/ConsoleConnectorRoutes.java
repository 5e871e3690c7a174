package dev.backplane.kernel.console;

import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.catalog.CatalogViews;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.retrieval.SearchLog;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /ui/connectors}: the list with review status (broken plugins with their reason), a connector's
 * groups and operations with the hybrid operation search, and enable / disable / enable-reads behind a
 * confirmation step. Changes go through {@link CatalogService} exactly as the REST review routes do,
 * with the same audit rows.
 */
public final class ConsoleConnectorRoutes {

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

    private final CatalogService catalog;
    private ConsoleRoutes console;

    public ConsoleConnectorRoutes(CatalogService catalog) {
        this.catalog = catalog;
    }

    void register(ConsoleRoutes console, HttpRouting.Builder routing) {
        this.console = console;
        console.page(routing, Method.GET, "/ui/connectors", Role.READ_ONLY, this::list);
        console.page(routing, Method.GET, "/ui/connectors/{connector_id}", Role.READ_ONLY, (req, res, s, f) ->
                review(req, res, s, null));
        for (Action a : Action.values()) {
            String path = "/ui/connectors/{connector_id}/" + a.path;
            console.page(routing, Method.GET, path, Role.TENANT_ADMIN, (req, res, s, f) -> confirm(req, res, s, a));
            console.page(routing, Method.POST, path, Role.TENANT_ADMIN, (req, res, s, f) -> apply(req, res, s, a));
        }
    }

    private static String id(ServerRequest req) {
        return req.path().pathParameters().get("connector_id");
    }

    private void list(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        String status = req.query().first("status").orElse("all");
        console.render(res, Status.OK_200, "connectors.jte", new ConsolePages.ConnectorsPage(s.frame("Connectors"),
                status, catalog.list(s.caller().tenantId(), Optional.of(status))));
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
                group, search, c.effectiveRole().includes(Role.TENANT_ADMIN), notice));
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
}
