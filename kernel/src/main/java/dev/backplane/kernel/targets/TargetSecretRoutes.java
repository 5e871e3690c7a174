package dev.backplane.kernel.targets;

import dev.backplane.kernel.credentials.CredentialService;
import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Map;

/**
 * {@code PUT /api/v1/targets/{name}/secret}: stage a target's secret at its secret_ref. Write-only:
 * no route reads a secret back, and there is no agent tool for it.
 */
public record TargetSecretRoutes(TargetService targets, CredentialService credentials) {

    /** Body: the secret's named fields. */
    record StageRequest(Map<String, String> fields) {
        StageRequest {
            fields = fields == null ? Map.of() : fields;
        }

        @Override
        public String toString() {
            return "StageRequest" + fields.keySet() + "(values redacted)";
        }
    }

    public void register(ApiRoutes api) {
        api.put("/api/v1/targets/{name}/secret", Role.TENANT_ADMIN, this::stage);
    }

    private void stage(ServerRequest req, ServerResponse res, Caller caller) {
        String ref = targets.describe(caller.tenantId(), req.path().pathParameters().get("name")).secretRef();
        StageRequest body = Json.read(req, StageRequest.class);
        Json.ok(res, credentials.stage(caller.tenantId(), ref, body.fields()));
    }
}
