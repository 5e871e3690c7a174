package dev.backplane.kernel.dashboards;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Role;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import java.util.Map;
import java.util.UUID;

/** REST of dashboards: {@code /api/v1/dashboards}; reads operator, writes tenant_admin. */
public final class DashboardRoutes {

    static final String DASHBOARDS = "/api/v1/dashboards";
    static final String DASHBOARD = DASHBOARDS + "/{id}";

    private final Dashboards dashboards;

    public DashboardRoutes(Dashboards dashboards) {
        this.dashboards = dashboards;
    }

    public void register(ApiRoutes api) {
        api.get(DASHBOARDS, Role.OPERATOR, (req, res, c) -> Json.ok(res, Map.of("dashboards", dashboards.list(c.tenantId(),
                        QueryParams.integer(req, "limit", Dashboards.LIMIT_DEFAULT), QueryParams.integer(req, "offset", 0)))))
                .post(DASHBOARDS, Role.TENANT_ADMIN, (req, res, c) -> Json.send(res, Status.CREATED_201,
                        dashboards.create(c, Json.read(req, Dashboards.Write.class))))
                .get(DASHBOARD, Role.OPERATOR, (req, res, c) -> Json.ok(res, dashboards.show(c.tenantId(), id(req))))
                .delete(DASHBOARD, Role.TENANT_ADMIN, (req, res, c) -> {
                    dashboards.delete(c, id(req));
                    Json.ok(res, Map.of("deleted", id(req).toString()));
                });
    }

    private static UUID id(ServerRequest req) {
        return QueryParams.uuidPath(req, "id", Dashboards::notFound);
    }
}
