package dev.backplane.kernel.runbooks;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Role;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** {@code /api/v1/runbooks}: templates (tenant_admin writes, operator reads) and runs (operator). */
public final class RunbookRoutes {

    static final String TEMPLATES = "/api/v1/runbooks/templates";
    static final String TEMPLATE = TEMPLATES + "/{slug}";
    static final String RUNS = "/api/v1/runbooks/runs";
    static final String RUN = RUNS + "/{id}";

    /** A new template or a changed draft: its YAML. */
    public record Draft(String slug, String yaml) {
    }

    /** Which published version to deprecate. */
    public record Deprecate(Integer version) {
    }

    private final RunbookTemplates templates;
    private final RunbookRuns runs;

    public RunbookRoutes(RunbookTemplates templates, RunbookRuns runs) {
        this.templates = templates;
        this.runs = runs;
    }

    public void register(ApiRoutes api) {
        api.get(TEMPLATES, Role.OPERATOR, (req, res, c) -> Json.ok(res, Map.of("templates", templates.list(c.tenantId(),
                        text(req, "status"), text(req, "target_kind"), QueryParams.integer(req, "limit",
                                RunbookTemplates.LIST_DEFAULT), QueryParams.integer(req, "offset", 0)))))
                .post(TEMPLATES, Role.TENANT_ADMIN, (req, res, c) -> {
                    Draft d = Json.read(req, Draft.class, 512 * 1024);
                    Json.send(res, Status.CREATED_201, templates.draft(c, d.slug(), d.yaml()));
                })
                .get(TEMPLATE, Role.OPERATOR, (req, res, c) -> Json.ok(res, templates.show(c.tenantId(), slug(req),
                        version(req))))
                .put(TEMPLATE, Role.TENANT_ADMIN, (req, res, c) -> {
                    Draft d = Json.read(req, Draft.class, 512 * 1024);
                    Json.ok(res, templates.edit(c, slug(req), d.slug(), d.yaml()));
                })
                .post(TEMPLATE + "/publish", Role.TENANT_ADMIN, (req, res, c) -> Json.ok(res, templates.publish(c,
                        slug(req))))
                .post(TEMPLATE + "/deprecate", Role.TENANT_ADMIN, (req, res, c) -> Json.ok(res, templates.deprecate(c,
                        slug(req), Json.read(req, Deprecate.class).version())))
                .get(RUNS, Role.OPERATOR, (req, res, c) -> Json.ok(res, Map.of("runs", runs.list(c.tenantId(),
                        text(req, "status"), text(req, "slug"), QueryParams.integer(req, "limit", RunbookRuns.LIST_DEFAULT),
                        QueryParams.integer(req, "offset", 0)))))
                .post(RUNS, Role.OPERATOR, (req, res, c) -> Json.send(res, Status.CREATED_201, runs.start(c,
                        Json.read(req, RunbookRuns.Start.class))))
                .get(RUN, Role.OPERATOR, (req, res, c) -> Json.ok(res, runs.show(c, id(req))))
                .post(RUN + "/next", Role.OPERATOR, (req, res, c) -> Json.ok(res, runs.next(c, id(req),
                        Json.read(req, RunbookRuns.Next.class))))
                .post(RUN + "/abort", Role.OPERATOR, (req, res, c) -> Json.ok(res, runs.abort(c, id(req),
                        Json.read(req, RunbookRuns.Abort.class))));
    }

    private static String slug(ServerRequest req) {
        return req.path().pathParameters().get("slug");
    }

    private static UUID id(ServerRequest req) {
        return QueryParams.uuidPath(req, "id", RunbookRuns::notFound);
    }

    private static Optional<Integer> version(ServerRequest req) {
        return req.query().first("version").asOptional().map(v -> {
            try {
                int n = Integer.parseInt(v.trim());
                if (n > 0) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // answered below
            }
            throw RunbookErrors.INVALID_RUNBOOK.error("version must be a positive integer, got '" + v + "'",
                    Map.of("field", "version"));
        });
    }

    private static Optional<String> text(ServerRequest req, String name) {
        return req.query().first(name).asOptional().filter(v -> !v.isEmpty());
    }
}
