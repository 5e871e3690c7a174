package dev.backplane.cli.connectors;

import dev.backplane.cli.common.RequestBody;
import java.util.Map;

/** The body of {@code POST /api/v1/operations/call} and {@code /preview}. */
@RequestBody
public record OperationRequest(String connectorId, String opId, String target, Map<String, Object> params,
        String previewHash, String workRef, Boolean async) {

    /** A call that waits for its envelope. */
    public OperationRequest(String connectorId, String opId, String target, Map<String, Object> params,
            String previewHash, String workRef) {
        this(connectorId, opId, target, params, previewHash, workRef, null);
    }

    /** A preview, or a call with neither a preview hash nor a work reference. */
    public OperationRequest(String connectorId, String opId, String target, Map<String, Object> params) {
        this(connectorId, opId, target, params, null, null);
    }
}
