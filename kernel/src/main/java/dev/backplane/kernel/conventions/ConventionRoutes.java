package dev.backplane.kernel.conventions;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.retrieval.SearchLog;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Map;
import java.util.Optional;

/** REST of conventions: {@code /api/v1/conventions}; reads operator, writes tenant_admin. */
public final class ConventionRoutes {

    public static final String CONVENTIONS = "/api/v1/conventions";
    static final String CONVENTION = CONVENTIONS + "/{slug}";
    public static final String SEARCH = CONVENTIONS + "/search";

    /** The body of a search. */
    record SearchBody(String query, String kind, Integer limit) {
    }

    private final Conventions conventions;

    public ConventionRoutes(Conventions conventions) {
        this.conventions = conventions;
    }

    public void register(ApiRoutes api) {
        api.get(CONVENTIONS, Role.OPERATOR, (req, res, c) -> Json.ok(res, Map.of("conventions", conventions.list(
                        c.tenantId(), req.query().first("kind").asOptional(),
                        QueryParams.integer(req, "limit", Conventions.LIMIT_DEFAULT), QueryParams.integer(req, "offset", 0)))))
                .post(CONVENTIONS, Role.TENANT_ADMIN, (req, res, c) -> Json.send(res, Status.CREATED_201,
                        conventions.create(c, Json.read(req, Conventions.Write.class))))
                .post(SEARCH, Role.OPERATOR, this::search)
                .get(CONVENTION, Role.OPERATOR, (req, res, c) -> Json.ok(res, conventions.show(c.tenantId(), slug(req))))
                .patch(CONVENTION, Role.TENANT_ADMIN, (req, res, c) -> Json.ok(res, conventions.edit(c, slug(req),
                        Json.read(req, Conventions.Write.class))))
                .delete(CONVENTION, Role.TENANT_ADMIN, (req, res, c) -> {
                    conventions.delete(c, slug(req));
                    Json.ok(res, Map.of("deleted", slug(req)));
                })
                .get(CONVENTION + "/history", Role.OPERATOR, (req, res, c) -> Json.ok(res, Map.of("slug", slug(req),
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
