package dev.backplane.kernel.app;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.persistence.Database;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code /health/live} (the process answers, and its API listener still accepts connections: {@link ListenerWatch}),
 * {@code /health/ready} (the database answers too, and the kernel is not shutting down) and {@code /health} (both).
 * 200 when UP, 503 when DOWN, always JSON. On SIGTERM readiness turns DOWN at once ({@code "accepting": "DOWN"})
 * while liveness stays UP.
 */
record HealthRoutes(Database database, java.util.function.BooleanSupplier draining,
                    java.util.function.BooleanSupplier listening) {

    void register(ApiRoutes api) {
        api.publicRoute(Method.GET, "/health", this::all)
                .publicRoute(Method.GET, "/health/live", this::live)
                .publicRoute(Method.GET, "/health/ready", this::ready);
    }

    /** Health answer: overall status and one entry per check. */
    record Health(String status, Map<String, String> checks) {
    }

    private void live(ServerRequest req, ServerResponse res) {
        send(res, liveness(new LinkedHashMap<>()));
    }

    private Map<String, String> liveness(Map<String, String> checks) {
        checks.put("process", "UP");
        checks.put("listener", listening.getAsBoolean() ? "UP" : "DOWN");
        return checks;
    }

    private void ready(ServerRequest req, ServerResponse res) {
        send(res, checks(false));
    }

    private void all(ServerRequest req, ServerResponse res) {
        send(res, checks(true));
    }

    private Map<String, String> checks(boolean withLiveness) {
        Map<String, String> checks = new LinkedHashMap<>();
        if (withLiveness) {
            liveness(checks);
        }
        checks.put("accepting", draining.getAsBoolean() ? "DOWN" : "UP");
        checks.put("database", database.isReady(Duration.ofSeconds(2)) ? "UP" : "DOWN");
        return checks;
    }

    private static void send(ServerResponse res, Map<String, String> checks) {
        boolean up = checks.values().stream().allMatch("UP"::equals);
        Json.send(res, up ? Status.OK_200 : Status.SERVICE_UNAVAILABLE_503, new Health(up ? "UP" : "DOWN", checks));
    }
}
