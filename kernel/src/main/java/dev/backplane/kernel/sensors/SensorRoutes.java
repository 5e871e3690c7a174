package dev.backplane.kernel.sensors;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Role;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import java.util.Map;
import java.util.UUID;

/** REST of sensors: {@code /api/v1/sensors}; reads operator, writes tenant_admin. */
public final class SensorRoutes {

    static final String SENSORS = "/api/v1/sensors";
    static final String SENSOR = SENSORS + "/{id}";

    private final Sensors sensors;

    public SensorRoutes(Sensors sensors) {
        this.sensors = sensors;
    }

    public void register(ApiRoutes api) {
        api.get(SENSORS, Role.OPERATOR, (req, res, c) -> Json.ok(res, Map.of("sensors", sensors.list(c.tenantId(),
                        req.query().first("cadence_kind").asOptional(), req.query().first("status").asOptional(),
                        QueryParams.integer(req, "limit", Sensors.LIMIT_DEFAULT), QueryParams.integer(req, "offset", 0)))))
                .post(SENSORS, Role.TENANT_ADMIN, (req, res, c) -> Json.send(res, Status.CREATED_201,
                        sensors.create(c, Json.read(req, Sensors.Write.class))))
                .get(SENSOR, Role.OPERATOR, (req, res, c) -> Json.ok(res, sensors.show(c.tenantId(), id(req))))
                .patch(SENSOR, Role.TENANT_ADMIN, (req, res, c) -> Json.ok(res, sensors.update(c, id(req),
                        Json.read(req, Sensors.Write.class))))
                .post(SENSOR + "/pause", Role.TENANT_ADMIN, (req, res, c) -> Json.ok(res,
                        sensors.setStatus(c, id(req), "paused")))
                .post(SENSOR + "/resume", Role.TENANT_ADMIN, (req, res, c) -> Json.ok(res,
                        sensors.setStatus(c, id(req), "active")))
                .delete(SENSOR, Role.TENANT_ADMIN, (req, res, c) -> {
                    sensors.delete(c, id(req));
                    Json.ok(res, Map.of("deleted", id(req).toString()));
                })
                .get(SENSOR + "/results", Role.OPERATOR, (req, res, c) -> Json.ok(res, sensors.results(c.tenantId(),
                        id(req), req.query().first("cursor").asOptional(), req.query().first("from").asOptional(),
                        req.query().first("to").asOptional(), QueryParams.integer(req, "limit", Sensors.LIMIT_DEFAULT),
                        req.query().first("state").asOptional())));
    }

    private static UUID id(ServerRequest req) {
        return QueryParams.uuidPath(req, "id", Sensors::notFound);
    }
}
