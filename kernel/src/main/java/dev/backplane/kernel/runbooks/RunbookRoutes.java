package dev.backplane.kernel.runbooks;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.CollectionRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Role;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** {@code /api/v1/runbooks}: templates (tenant_admin writes, operator reads) and runs (operator). */
public record RunbookRoutes(RunbookTemplates templates, RunbookRuns runs) {

    static final String TEMPLATES = "/api/v1/runbooks/templates";
    static final String RUNS = "/api/v1/runbooks/runs";

    /** A new template or a changed draft: its YAML. */
    public record Draft(String slug, String yaml) {
    }

    /** Which published version to deprecate. */
    public record Deprecate(Integer version) {
    }

    public void register(ApiRoutes api) {
        CollectionRoutes<String> templateRoutes = api.collection(TEMPLATES, "slug", Role.OPERATOR, Role.TENANT_ADMIN)
                .list("templates", RunbookTemplates.PAGE.fallback(), (req, c, page) -> templates.list(c.tenantId(),
                        text(req, "status"), text(req, "target_kind"), page.limit(), page.offset()));
        String template = templateRoutes.member();
        api.post(TEMPLATES, Role.TENANT_ADMIN, (req, res, c) -> {
                    Draft d = Json.read(req, Draft.class, 512 * 1024);
                    Json.send(res, Status.CREATED_201, templates.draft(c, d.slug(), d.yaml()));
                })
                .get(template, Role.OPERATOR, (req, res, c) -> Json.ok(res, templates.show(c.tenantId(), slug(req),
                        version(req))))
                .put(template, Role.TENANT_ADMIN, (req, res, c) -> {
                    Draft d = Json.read(req, Draft.class, 512 * 1024);
                    Json.ok(res, templates.edit(c, slug(req), d.slug(), d.yaml()));
                });
        templateRoutes.action("publish", templates::publish);
        api.post(template + "/deprecate", Role.TENANT_ADMIN, (req, res, c) -> Json.ok(res, templates.deprecate(c,
                slug(req), Json.read(req, Deprecate.class).version())));
        String run = api.collection(RUNS, "id", RunbookRoutes::id, Role.OPERATOR, Role.OPERATOR)
                .list("runs", RunbookRuns.PAGE.fallback(), (req, c, page) -> runs.list(c.tenantId(), text(req, "status"),
                        text(req, "slug"), page.limit(), page.offset()))
                .create(RunbookRuns.Start.class, runs::start)
                .show(runs::show)
                .member();
        api.post(run + "/next", Role.OPERATOR, (req, res, c) -> Json.ok(res, runs.next(c, id(req),
                        Json.read(req, RunbookRuns.Next.class))))
                .post(run + "/abort", Role.OPERATOR, (req, res, c) -> Json.ok(res, runs.abort(c, id(req),
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
