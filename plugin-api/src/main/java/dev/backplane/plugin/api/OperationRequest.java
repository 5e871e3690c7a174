package dev.backplane.plugin.api;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;

/**
 * One call of an operation.
 *
 * @param opId the operation
 * @param params validated parameters: JSON values as Java objects (Map, List, String, Number, Boolean, null)
 * @param workRef the caller's external change-ticket reference, if any
 */
public record OperationRequest(String opId, Map<String, Object> params, Optional<String> workRef) {
    public OperationRequest {
        requireNonNull(opId, "opId is null");
        params = requireNonNull(params, "params is null");
        requireNonNull(workRef, "workRef is null");
    }
}
