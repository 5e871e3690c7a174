package dev.backplane.plugin.api;

import static java.util.Objects.requireNonNull;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * One operation a connector publishes.
 *
 * @param opId dotted id, lower-case ({@code k8s.pod.list})
 * @param groupKey the {@link OperationGroup} it belongs to
 * @param description what it does, for operators and agents
 * @param safetyLevel how much harm it can do
 * @param requiresApproval whether a call parks for approval by default
 * @param opClass read, write, credential_read or other
 * @param paramsSchema JSON Schema (draft 2020-12) of the params object, as JSON text
 * @param shape how it reaches the target
 * @param resultKind set or object
 * @param secretParams the params whose values are secret (since 1.7), as dotted paths of property names
 *                     ({@code data} hides the whole {@code data} object; {@code credentials.value} hides
 *                     {@code value} in every element of the {@code credentials} array). Like a Keycloak config
 *                     property's {@code secret} flag: the kernel shows them as {@value Redaction#REDACTED}
 *                     wherever it shows a call's params to anyone (an approval request), on top of its
 *                     key-name heuristic ({@link Redaction#looksSecret}), which stays the fallback
 */
public record OperationDescriptor(String opId, String groupKey, String description, SafetyLevel safetyLevel,
                                  boolean requiresApproval, OpClass opClass, String paramsSchema, OperationShape shape,
                                  ResultKind resultKind, Set<String> secretParams) {

    private static final Pattern SECRET_PATH = Pattern.compile("[^.\\s]{1,128}(\\.[^.\\s]{1,128}){0,15}");
    private static final Pattern OP_ID = Pattern.compile("[a-z0-9][a-z0-9_-]*(\\.[a-z0-9][a-zA-Z0-9_-]*)+");

    public OperationDescriptor {
        requireNonNull(opId, "opId is null");
        requireNonNull(groupKey, "groupKey is null");
        requireNonNull(description, "description is null");
        requireNonNull(safetyLevel, "safetyLevel is null");
        requireNonNull(opClass, "opClass is null");
        requireNonNull(paramsSchema, "paramsSchema is null");
        requireNonNull(shape, "shape is null");
        requireNonNull(resultKind, "resultKind is null");
        requireNonNull(secretParams, "secretParams is null");
        secretParams = Set.copyOf(secretParams);
        for (String path : secretParams) {
            if (!SECRET_PATH.matcher(path).matches()) {
                throw new IllegalArgumentException("secret param of " + opId + " must be a dotted path of property "
                        + "names (e.g. data or credentials.value): " + path);
            }
        }
        if (!OP_ID.matcher(opId).matches()) {
            throw new IllegalArgumentException("op id must be dotted lower-case words (e.g. k8s.pod.list): " + opId);
        }
        if (!paramsSchema.strip().startsWith("{")) {
            throw new IllegalArgumentException("params schema of " + opId + " must be a JSON Schema object");
        }
    }

    /** An operation with no secret params (the constructor of plugin-api before 1.7). */
    public OperationDescriptor(String opId, String groupKey, String description, SafetyLevel safetyLevel,
                               boolean requiresApproval, OpClass opClass, String paramsSchema, OperationShape shape,
                               ResultKind resultKind) {
        this(opId, groupKey, description, safetyLevel, requiresApproval, opClass, paramsSchema, shape, resultKind,
                Set.of());
    }

    /** This operation with {@code paths} declared secret (see {@link #secretParams}). */
    public OperationDescriptor withSecretParams(String... paths) {
        return new OperationDescriptor(opId, groupKey, description, safetyLevel, requiresApproval, opClass, paramsSchema,
                shape, resultKind, Set.copyOf(java.util.Arrays.asList(paths)));
    }

    /** Read-class: only reads, and (when HTTP-shaped) uses GET or HEAD. {@code enable-reads} enables these. */
    public boolean isReadClass() {
        return opClass == OpClass.READ && !(shape instanceof OperationShape.Http http && !http.isRead());
    }
}
