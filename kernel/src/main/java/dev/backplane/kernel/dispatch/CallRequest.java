package dev.backplane.kernel.dispatch;

import java.util.Map;
import java.util.Optional;

/**
 * One operation call, whichever surface made it.
 *
 * @param connectorId {@code <impl_id>-<version>}
 * @param opId the operation
 * @param target target name or alias
 * @param params the operation's params (validated against its schema)
 * @param workRef external change-ticket reference, stamped on audit and approval rows
 * @param previewHash the hash of a preview of this very request (required for dangerous operations)
 * @param async run in the background and answer with a handle
 */
public record CallRequest(String connectorId, String opId, String target, Map<String, Object> params,
                          Optional<String> workRef, Optional<String> previewHash, Optional<Boolean> async) {
    public CallRequest {
        params = params == null ? Map.of() : params;
        workRef = workRef == null ? Optional.empty() : workRef;
        previewHash = previewHash == null ? Optional.empty() : previewHash;
        async = async == null ? Optional.empty() : async;
    }
}
