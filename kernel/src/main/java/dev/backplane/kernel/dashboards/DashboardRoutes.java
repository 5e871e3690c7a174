package dev.backplane.kernel.dashboards;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Role;
import io.helidon.webserver.http.ServerRequest;
import java.util.UUID;

/** REST of dashboards: {@code /api/v1/dashboards}; reads operator, writes tenant_admin. */
public record DashboardRoutes(Dashboards dashboards) {

    static final String DASHBOARDS = "/api/v1/dashboards";

    public void register(ApiRoutes api) {
        api.collection(DASHBOARDS, "id", DashboardRoutes::id, Role.OPERATOR, Role.TENANT_ADMIN)
                .list("dashboards", Dashboards.PAGE.fallback(), (req, c, page) -> dashboards.list(c.tenantId(),
                        page.limit(), page.offset()))
                .create(Dashboards.Write.class, dashboards::create)
                .show((c, id) -> dashboards.show(c.tenantId(), id))
                .delete(dashboards::delete);
    }

    private static UUID id(ServerRequest req) {
        return QueryParams.uuidPath(req, "id", Dashboards::notFound);
    }
}
