package dev.backplane.kernel.targets;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** REST surface of the target registry. */
public final class TargetRoutes {

    static final String TARGETS = "/api/v1/targets";
    static final String TARGET = TARGETS + "/{name}";

    /** Body of an import. */
    record ImportRequest(List<TargetFields> targets, Optional<Boolean> update, Optional<Boolean> dryRun) {
        ImportRequest {
            targets = targets == null ? List.of() : targets;
            update = update == null ? Optional.empty() : update;
            dryRun = dryRun == null ? Optional.empty() : dryRun;
        }
    }

    /** Answer of a delete. */
    record Deleted(String deleted) {
    }

    /** Body of a discovery. */
    record DiscoverRequest(String product, Optional<String> seedTarget) {
        DiscoverRequest {
            seedTarget = seedTarget == null ? Optional.empty() : seedTarget;
        }
    }

    private final TargetService targets;
    private final ProbeService probes;

    public TargetRoutes(TargetService targets, ProbeService probes) {
        this.targets = targets;
        this.probes = probes;
    }

    public void register(ApiRoutes api) {
        api.post(TARGETS, Role.TENANT_ADMIN, this::create)
                .get(TARGETS, Role.READ_ONLY, this::list)
                .post(TARGETS + "/import", Role.TENANT_ADMIN, this::importTargets)
                .post(TARGETS + "/discover", Role.OPERATOR, this::discover)
                .post(TARGET + "/probe", Role.OPERATOR, (req, res, c) -> Json.ok(res, probes.probe(c, name(req))))
                .get(TARGET, Role.READ_ONLY, (req, res, c) -> Json.ok(res, targets.describe(c.tenantId(), name(req))))
                .patch(TARGET, Role.TENANT_ADMIN, this::patch)
                .delete(TARGET, Role.TENANT_ADMIN, this::delete);
    }

    private static String name(ServerRequest req) {
        return req.path().pathParameters().get("name");
    }

    private void create(ServerRequest req, ServerResponse res, Caller caller) {
        Json.send(res, Status.CREATED_201, targets.create(caller.tenantId(), Json.read(req, TargetFields.class),
                caller.sub()));
    }

    private void list(ServerRequest req, ServerResponse res, Caller caller) {
        int limit = req.query().first("limit").asOptional().map(TargetRoutes::limit).orElse(TargetService.LIST_LIMIT_DEFAULT);
        Json.ok(res, targets.list(caller.tenantId(), req.query().first("cursor").asOptional(), limit,
                req.query().first("product").asOptional()));
    }

    private void patch(ServerRequest req, ServerResponse res, Caller caller) {
        Json.ok(res, targets.patch(caller.tenantId(), name(req), Json.read(req, TargetFields.class), caller.sub()));
    }

    private void delete(ServerRequest req, ServerResponse res, Caller caller) {
        targets.delete(caller.tenantId(), name(req));
        Json.ok(res, new Deleted(name(req)));
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

    private static int limit(String text) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw CommonErrors.INVALID_LIMIT.error("limit must be an integer 1..500, got '" + text + "'",
                    Map.of("field", "limit"));
        }
    }
}
