package dev.backplane.kernel.scheduler;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Role;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import java.util.Map;
import java.util.UUID;

/** REST of scheduler triggers: {@code /api/v1/scheduler/triggers}; reads operator, writes tenant_admin. */
public final class TriggerRoutes {

    static final String TRIGGERS = "/api/v1/scheduler/triggers";
    static final String TRIGGER = TRIGGERS + "/{id}";

    private final Triggers triggers;

    public TriggerRoutes(Triggers triggers) {
        this.triggers = triggers;
    }

    public void register(ApiRoutes api) {
        api.get(TRIGGERS, Role.OPERATOR, (req, res, c) -> Json.ok(res, Map.of("triggers", triggers.list(c.tenantId(),
                        QueryParams.integer(req, "limit", Triggers.LIMIT_DEFAULT), QueryParams.integer(req, "offset", 0)))))
                .post(TRIGGERS, Role.TENANT_ADMIN, (req, res, c) -> Json.send(res, Status.CREATED_201,
                        triggers.create(c, Json.read(req, Triggers.Write.class))))
                .get(TRIGGER, Role.OPERATOR, (req, res, c) -> Json.ok(res, triggers.show(c.tenantId(), id(req))))
                .post(TRIGGER + "/pause", Role.TENANT_ADMIN, (req, res, c) -> Json.ok(res,
                        triggers.setStatus(c, id(req), "paused")))
                .post(TRIGGER + "/resume", Role.TENANT_ADMIN, (req, res, c) -> Json.ok(res,
                        triggers.setStatus(c, id(req), "active")))
                .delete(TRIGGER, Role.TENANT_ADMIN, (req, res, c) -> {
                    triggers.delete(c, id(req));
                    Json.ok(res, Map.of("deleted", id(req).toString()));
                });
    }

    private static UUID id(ServerRequest req) {
        return QueryParams.uuidPath(req, "id", v -> SchedulerErrors.TRIGGER_NOT_FOUND.error("no trigger " + v
                + " in this tenant"));
    }
}
