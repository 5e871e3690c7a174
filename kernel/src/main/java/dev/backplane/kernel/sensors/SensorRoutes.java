package dev.backplane.kernel.sensors;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Role;
import io.helidon.webserver.http.ServerRequest;
import java.util.UUID;

/** REST of sensors: {@code /api/v1/sensors}; reads operator, writes tenant_admin. */
public record SensorRoutes(Sensors sensors) {

    static final String SENSORS = "/api/v1/sensors";

    public void register(ApiRoutes api) {
        String sensor = api.collection(SENSORS, "id", SensorRoutes::id, Role.OPERATOR, Role.TENANT_ADMIN)
                .list("sensors", Sensors.PAGE.fallback(), (req, c, page) -> sensors.list(c.tenantId(),
                        req.query().first("cadence_kind").asOptional(), req.query().first("status").asOptional(),
                        page.limit(), page.offset()))
                .create(Sensors.Write.class, sensors::create)
                .show((c, id) -> sensors.show(c.tenantId(), id))
                .update(Sensors.Write.class, sensors::update)
                .pauseAndResume(sensors::setStatus)
                .delete(sensors::delete)
                .member();
        api.get(sensor + "/results", Role.OPERATOR, (req, res, c) -> Json.ok(res, sensors.results(
                c.tenantId(), id(req), req.query().first("cursor").asOptional(), req.query().first("from").asOptional(),
                req.query().first("to").asOptional(), QueryParams.integer(req, "limit", Sensors.PAGE.fallback()),
                req.query().first("state").asOptional())));
    }

    private static UUID id(ServerRequest req) {
        return QueryParams.uuidPath(req, "id", Sensors::notFound);
    }
}
