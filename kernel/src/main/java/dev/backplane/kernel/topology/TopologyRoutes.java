package dev.backplane.kernel.topology;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.util.TimeArg;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * REST of the topology graph under {@value #BASE}: reads operator; annotate, unannotate and refresh
 * tenant_admin; the bulk import operator (SPEC's route table). Node names travel in the query or the
 * body, never in the path.
 */
public record TopologyRoutes(Topology topology) {

    public static final String BASE = "/api/v1/topology";
    public static final String EDGES = BASE + "/edges";
    public static final String UNANNOTATE = EDGES + "/unannotate";
    public static final String BULK = EDGES + "/bulk";

    /** The body of a refresh. */
    record RefreshBody(String target) {
    }

    public void register(ApiRoutes api) {
        api.get(EDGES, Role.OPERATOR, this::edges)
                .post(EDGES, Role.TENANT_ADMIN, (req, res, c) -> {
                    Map<String, Object> out = topology.annotate(c, Json.read(req, EdgeInput.class));
                    Json.send(res, out.get("change").equals("created") ? Status.CREATED_201 : Status.OK_200, out);
                })
                .post(UNANNOTATE, Role.TENANT_ADMIN, (req, res, c) -> Json.ok(res,
                        topology.unannotate(c, Json.read(req, Topology.Unannotate.class))))
                .post(BULK, Role.OPERATOR, (req, res, c) -> Json.ok(res,
                        topology.bulk(c, Json.read(req, Topology.Bulk.class, Topology.BULK_MAX_BYTES))))
                .get(BASE + "/dependencies", Role.OPERATOR, (req, res, c) -> walk(req, res, c, false))
                .get(BASE + "/dependents", Role.OPERATOR, (req, res, c) -> walk(req, res, c, true))
                .get(BASE + "/path", Role.OPERATOR, (req, res, c) -> Json.ok(res, topology.traversals().path(c.tenantId(),
                        required(req, "from"), required(req, "to"), optionalInt(req, "max_hops"))))
                .get(BASE + "/diff", Role.OPERATOR, (req, res, c) -> Json.ok(res, topology.history().diff(c.tenantId(),
                        TimeArg.parse(required(req, "t1"), "t1"), TimeArg.parse(required(req, "t2"), "t2"),
                        QueryParams.flag(req, "changed_only"), text(req, "kind"))))
                .get(BASE + "/history", Role.OPERATOR, (req, res, c) -> Json.ok(res, topology.history().history(
                        c.tenantId(), required(req, "node"), QueryParams.flag(req, "include_edges"),
                        QueryParams.integer(req, "limit", TopologyHistory.HISTORY_PAGE.fallback()), time(req, "since"),
                        time(req, "until"))))
                .get(BASE + "/timeline", Role.OPERATOR, (req, res, c) -> Json.ok(res, topology.history().timeline(
                        c.tenantId(), text(req, "cursor"), QueryParams.integer(req, "limit",
                                TopologyHistory.TIMELINE_PAGE.fallback()), time(req, "since"), text(req, "target"),
                        time(req, "until"))))
                .post(BASE + "/refresh", Role.TENANT_ADMIN, (req, res, c) -> {
                    RefreshBody b = Json.read(req, RefreshBody.class);
                    if (b.target() == null || b.target().isBlank()) {
                        throw CommonErrors.INVALID_REQUEST.error("target is required", Map.of("field", "target"));
                    }
                    Json.ok(res, topology.refresh(c.tenantId(), b.target(), c.sub()));
                });
    }

    private void edges(ServerRequest req, ServerResponse res, Caller c) {
        Json.ok(res, topology.history().edges(c.tenantId(), new TopologyHistory.EdgeFilter(QueryParams.flag(req,
                "conflicts"), text(req, "from"), text(req, "to"), text(req, "kind"), text(req, "source"),
                QueryParams.integer(req, "limit", TopologyHistory.LIST_PAGE.fallback()), QueryParams.integer(req, "offset", 0))));
    }

    private void walk(ServerRequest req, ServerResponse res, Caller c, boolean dependents) {
        List<String> kinds = text(req, "kind").map(k -> Arrays.stream(k.split(",")).map(String::trim)
                .filter(s -> !s.isEmpty()).toList()).orElse(List.of());
        Json.ok(res, topology.traversals().walk(c.tenantId(), required(req, "node"), dependents, optionalInt(req, "depth"),
                QueryParams.flag(req, "include_stale"), kinds, text(req, "node_kind")));
    }

    private static Optional<String> text(ServerRequest req, String name) {
        return req.query().first(name).asOptional().filter(v -> !v.isEmpty());
    }

    private static String required(ServerRequest req, String name) {
        return text(req, name).orElseThrow(() -> CommonErrors.INVALID_REQUEST.error(name + " is required",
                Map.of("field", name)));
    }

    private static Integer optionalInt(ServerRequest req, String name) {
        return text(req, name).isPresent() ? QueryParams.integer(req, name, 0) : null;
    }

    private static Optional<Instant> time(ServerRequest req, String name) {
        return text(req, name).map(v -> TimeArg.parse(v, name));
    }
}
