package dev.backplane.kernel.app;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.identity.Role;

/** {@code GET /api/v1/features}: the feature-maturity index ({@link FeatureMaturity}), to any signed-in caller. */
final class FeatureRoutes {

    void register(ApiRoutes api) {
        api.get("/api/v1/features", Role.READ_ONLY, (req, res, caller) -> Json.ok(res, FeatureMaturity.index()));
    }
}
