package dev.backplane.kernel.targets;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.CollectionRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** REST surface of the target registry. */
public record TargetRoutes(TargetService targets, ProbeService probes) {

    static final String TARGETS = "/api/v1/targets";

    /** Body of an import. */
    record ImportRequest(List<TargetFields> targets, Optional<Boolean> update, Optional<Boolean> dryRun) {
        ImportRequest {
            targets = targets == null ? List.of() : targets;
            update = update == null ? Optional.empty() : update;
            dryRun = dryRun == null ? Optional.empty() : dryRun;
        }
    }

    /** Body of a discovery. */
    record DiscoverRequest(String product, Optional<String> seedTarget) {
        DiscoverRequest {
            seedTarget = seedTarget == null ? Optional.empty() : seedTarget;
        }
    }

    public void register(ApiRoutes api) {
        CollectionRoutes<String> collection = api.collection(TARGETS, "name", Role.READ_ONLY, Role.TENANT_ADMIN)
                .create(TargetFields.class, (c, fields) -> targets.create(c.tenantId(), fields, c.sub()));
        api.get(TARGETS, Role.READ_ONLY, this::list)
                .post(TARGETS + "/import", Role.TENANT_ADMIN, this::importTargets)
                .post(TARGETS + "/discover", Role.OPERATOR, this::discover)
                .get(TARGETS + "/{name}/resolution", Role.READ_ONLY, (req, res, caller) -> Json.ok(res, probes.explain(
                        caller.tenantId(), req.path().pathParameters().get("name"), req.query().first("op_id").asOptional())))
                .post(collection.member() + "/probe", Role.OPERATOR, (req, res, c) -> Json.ok(res, probes.probe(c,
                        req.path().pathParameters().get("name"))));
        collection.show((c, name) -> targets.describe(c.tenantId(), name))
                .update(TargetFields.class, (c, name, fields) -> targets.patch(c.tenantId(), name, fields, c.sub()))
                .delete((c, name) -> targets.delete(c.tenantId(), name));
    }

    private void list(ServerRequest req, ServerResponse res, Caller caller) {
        int limit = QueryParams.limit(req, TargetService.LIST_LIMIT_DEFAULT, 500);
        Json.ok(res, targets.list(caller.tenantId(), req.query().first("cursor").asOptional(), limit,
                req.query().first("product").asOptional()));
    }

    private void importTargets(ServerRequest req, ServerResponse res, Caller caller) {
        ImportRequest body = Json.read(req, ImportRequest.class);
        Json.ok(res, targets.importTargets(caller.tenantId(), body.targets(), body.update().orElse(false),
                body.dryRun().orElse(false), caller.sub()));
    }

    private void discover(ServerRequest req, ServerResponse res, Caller caller) {
        DiscoverRequest body = Json.read(req, DiscoverRequest.class);
        if (body.product() == null || body.product().isBlank()) {
            throw TargetErrors.MISSING_FIELD.error("product is required", Map.of("field", "product"));
        }
        Json.ok(res, probes.discover(caller, body.product(), body.seedTarget()));
    }
}
