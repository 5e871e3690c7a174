package dev.backplane.kernel.scheduler;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Role;
import io.helidon.webserver.http.ServerRequest;
import java.util.UUID;

/** REST of scheduler triggers: {@code /api/v1/scheduler/triggers}; reads operator, writes tenant_admin. */
public record TriggerRoutes(Triggers triggers) {

    static final String TRIGGERS = "/api/v1/scheduler/triggers";

    public void register(ApiRoutes api) {
        api.collection(TRIGGERS, "id", TriggerRoutes::id, Role.OPERATOR, Role.TENANT_ADMIN)
                .list("triggers", Triggers.PAGE.fallback(), (req, c, page) -> triggers.list(c.tenantId(), page.limit(),
                        page.offset()))
                .create(Triggers.Write.class, triggers::create)
                .show((c, id) -> triggers.show(c.tenantId(), id))
                .pauseAndResume(triggers::setStatus)
                .delete(triggers::delete);
    }

    private static UUID id(ServerRequest req) {
        return QueryParams.uuidPath(req, "id", v -> SchedulerErrors.TRIGGER_NOT_FOUND.error("no trigger " + v
                + " in this tenant"));
    }
}
