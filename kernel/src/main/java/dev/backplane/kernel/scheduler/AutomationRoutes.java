package dev.backplane.kernel.scheduler;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Role;

/** {@code GET /api/v1/automation}: what runs by itself in the tenant (operator). */
public record AutomationRoutes(Automations automations) {

    static final String AUTOMATION = "/api/v1/automation";

    public void register(ApiRoutes api) {
        api.get(AUTOMATION, Role.OPERATOR, (req, res, c) -> Json.ok(res, automations.list(c.tenantId(),
                QueryParams.integer(req, "limit", Automations.PAGE.fallback()))));
    }
}
