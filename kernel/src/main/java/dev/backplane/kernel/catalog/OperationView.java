package dev.backplane.kernel.catalog;

import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationShape;
import java.util.Optional;

/**
 * An operation as a tenant sees it: the plugin's descriptor with the tenant's review overrides applied.
 *
 * @param opId the operation id
 * @param groupKey its group
 * @param description the custom description when set, else the plugin's
 * @param customDescription the override, if any
 * @param safetyLevel effective safety level
 * @param requiresApproval effective approval flag; always true for a {@code credential_read}
 * @param opClass effective class: the tenant's override, else the connector's (read, write, credential_read or other)
 * @param isEnabled whether the operation itself is enabled (dispatchable also needs the connector enabled)
 * @param readClass whether {@code enable-reads} enables it: effective class read and, when HTTP-shaped, GET or
 *                  HEAD (an override to read of a POST does not make it one)
 * @param method HTTP method, for HTTP-shaped operations
 * @param pathTemplate HTTP path template, for HTTP-shaped operations
 * @param shape http, command, typed or composite
 * @param resultKind set or object
 * @param opClassOverridden whether {@code opClass} is the tenant's override ({@code edit-op --op-class})
 * @param classificationReason why it has its class and safety, in one line (review only; empty elsewhere): the
 *                             ingest's heuristic ("POST whose name says it only reads: 'plan'"), a rules file rule,
 *                             the plugin's declaration, and an admin's override in front when there is one
 */
public record OperationView(String opId, String groupKey, String description, Optional<String> customDescription,
                            String safetyLevel, boolean requiresApproval, String opClass, boolean isEnabled,
                            boolean readClass, Optional<String> method, Optional<String> pathTemplate, String shape,
                            String resultKind, boolean opClassOverridden, Optional<String> classificationReason) {

    static OperationView of(OperationDescriptor d, ReviewStore.OpOverride o) {
        return of(d, o, Optional.empty());
    }

    /**
     * With the reason review shows.
     *
     * @param connectorReason why the connector classed it so (the ingest's reason, or the plugin's declaration)
     */
    static OperationView of(OperationDescriptor d, ReviewStore.OpOverride o, String connectorReason) {
        boolean overridden = o != null && (o.opClass().isPresent() || o.safetyLevel().isPresent()
                || o.requiresApproval().isPresent());
        return of(d, o, Optional.of(overridden ? "set by an admin (edit-op); the connector's: " + connectorReason
                : connectorReason));
    }

    private static OperationView of(OperationDescriptor d, ReviewStore.OpOverride o, Optional<String> reason) {
        Optional<String> custom = o == null ? Optional.empty() : o.customDescription();
        String shape = switch (d.shape()) {
            case OperationShape.Http h -> "http";
            case OperationShape.Command c -> "command";
            case OperationShape.Typed t -> "typed";
            case OperationShape.Composite c -> "composite";
        };
        Optional<OperationShape.Http> http = d.shape() instanceof OperationShape.Http h ? Optional.of(h) : Optional.empty();
        Optional<OpClass> overridden = o == null ? Optional.empty() : o.opClass().flatMap(OpClass::fromWireName);
        OpClass opClass = overridden.orElse(d.opClass());
        boolean approval = opClass == OpClass.CREDENTIAL_READ
                || (o == null ? d.requiresApproval() : o.requiresApproval().orElse(d.requiresApproval()));
        return new OperationView(d.opId(), d.groupKey(), custom.orElse(d.description()), custom,
                o == null ? d.safetyLevel().wireName() : o.safetyLevel().orElse(d.safetyLevel().wireName()),
                approval, opClass.wireName(), o != null && o.isEnabled().orElse(false), readClass(d, opClass),
                http.map(OperationShape.Http::method), http.map(OperationShape.Http::pathTemplate), shape,
                d.resultKind().wireName(), overridden.isPresent(), reason);
    }

    /**
     * Whether {@code enable-reads} may enable an operation of effective class {@code opClass}: a read that, when
     * HTTP-shaped, uses GET or HEAD. The method is the operation's own, which no override changes, so an override to
     * {@code read} never lets {@code enable-reads} open a POST, PUT, PATCH or DELETE.
     */
    static boolean readClass(OperationDescriptor d, OpClass opClass) {
        return opClass == OpClass.READ && !(d.shape() instanceof OperationShape.Http http && !http.isRead());
    }

    /**
     * A POST the connector itself classes as a read (the ingest found its name says it only reads: search, plan,
     * validate): {@code enable-reads --include-read-posts} opens it too. An admin's override to read never makes one.
     */
    boolean readOnlyPost() {
        return opClass.equals(OpClass.READ.wireName()) && !opClassOverridden && method.equals(Optional.of("POST"));
    }
}
