package dev.backplane.kernel.app;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Optional;
import java.util.UUID;

/** {@code GET /api/v1/whoami}: who the backplane takes the caller to be (used by {@code svc status}). */
public final class IdentityRoutes {

    /**
     * The caller as seen by the backplane.
     *
     * @param tenantId the tenant this request acts on
     * @param homeTenantId the tenant named in the token
     */
    public record WhoAmI(String sub, Optional<String> username, UUID tenantId, Optional<UUID> homeTenantId,
                         String tenantRole, boolean platformAdmin, String principalKind, Optional<String> clientId) {
    }

    public void register(ApiRoutes api) {
        api.get("/api/v1/whoami", Role.READ_ONLY, this::whoami);
    }

    private void whoami(ServerRequest req, ServerResponse res, Caller caller) {
        Json.ok(res, new WhoAmI(caller.sub(), caller.username(), caller.tenantId(), caller.homeTenantId(),
                caller.role().wireName(), caller.platformAdmin(), caller.kind().wireName(), caller.clientId()));
    }
}
