package dev.backplane.kernel.credentials;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import java.util.Map;

/** The credential failures of SPEC "Errors" (dispatch rows), in one place. */
final class StoreFailures {

    private StoreFailures() {
    }

    static ConnectorException forbidden(String ref, String where) {
        return new ConnectorException(ErrorCode.CONNECTOR_KV_FORBIDDEN, "the secret store denied reading " + where
                + "; the secret is usually staged at a different path than the target's secret_ref — stage it at "
                + "exactly '" + ref + "' (svc targets stage-secret) or grant the backplane read access there",
                Map.of("expected_path", ref), null);
    }

    static ConnectorException notFound(String ref, String where) {
        return new ConnectorException(ErrorCode.CONNECTOR_ERROR, "KvCredentialsReadError (no secret at path): nothing "
                + "is stored at " + where + "; stage it with svc targets stage-secret", Map.of("expected_path", ref), null);
    }

    static ConnectorException unavailable(String what, String detail) {
        return new ConnectorException(ErrorCode.CONNECTOR_ERROR, "the secret store (" + what + ") is unavailable: "
                + detail, Map.of(), null);
    }

    static ConnectorException malformed(String ref, String detail) {
        return new ConnectorException(ErrorCode.CONNECTOR_ERROR, "KvCredentialsReadError (unreadable secret at '" + ref
                + "'): " + detail, Map.of("expected_path", ref), null);
    }
}
