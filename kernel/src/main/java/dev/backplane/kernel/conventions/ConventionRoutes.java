package dev.backplane.kernel.conventions;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.retrieval.SearchLog;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Map;
import java.util.Optional;

/** REST of conventions: {@code /api/v1/conventions}; reads operator, writes tenant_admin. */
public record ConventionRoutes(Conventions conventions) {

    public static final String CONVENTIONS = "/api/v1/conventions";
    public static final String SEARCH = CONVENTIONS + "/search";

    /** The body of a search. */
    record SearchBody(String query, String kind, Integer limit) {
    }

    public void register(ApiRoutes api) {
        api.post(SEARCH, Role.OPERATOR, this::search);
        String convention = api.collection(CONVENTIONS, "slug", Role.OPERATOR, Role.TENANT_ADMIN)
                .list("conventions", Conventions.PAGE.fallback(), (req, c, page) -> conventions.list(c.tenantId(),
                        req.query().first("kind").asOptional(), page.limit(), page.offset()))
                .create(Conventions.Write.class, conventions::create)
                .show((c, slug) -> conventions.show(c.tenantId(), slug))
                .update(Conventions.Write.class, conventions::edit)
                .delete(conventions::delete)
                .member();
        api.get(convention + "/history", Role.OPERATOR, (req, res, c) -> Json.ok(res, Map.of("slug", slug(req),
                "versions", conventions.history(c.tenantId(), slug(req), QueryParams.integer(req, "limit",
                        Conventions.HISTORY_DEFAULT)))));
    }

    private void search(ServerRequest req, ServerResponse res, Caller c) {
        SearchBody b = Json.read(req, SearchBody.class);
        Json.ok(res, Map.of("hits", conventions.search(c, SearchLog.Transport.REST, b.query(), Optional.ofNullable(b.kind()),
                b.limit() == null ? 10 : b.limit())));
    }

    private static String slug(ServerRequest req) {
        return req.path().pathParameters().get("slug");
    }
}
