package dev.backplane.kernel.dispatch;

import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.catalog.Implementations;
import dev.backplane.kernel.governance.PolicyGate;
import dev.backplane.kernel.targets.Target;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.SafetyLevel;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A call resolved once by {@link CallResolver}: the operation of the connector that serves the target, the target,
 * the audit entry every row of the call starts from, the plugin's request and the implementation choice.
 */
record ResolvedCall(CatalogService.EffectiveOperation op, Target target, AuditLog.Entry entry,
                    OperationRequest request, Implementations.Choice choice) {

    String connectorId() {
        return op.connector().connectorId();
    }

    /** Extras every row and envelope of a rerouted call carries (requested and resolved connector). */
    Map<String, Object> withResolution(Map<String, Object> extras) {
        if (!choice.rerouted()) {
            return extras;
        }
        Map<String, Object> out = new LinkedHashMap<>(extras);
        out.putAll(choice.extras());
        return out;
    }

    /** {@code env} with the requested and resolved connector in its extras when the call was rerouted. */
    ResultEnvelope withResolution(ResultEnvelope env) {
        if (!choice.rerouted()) {
            return env;
        }
        return new ResultEnvelope(env.status(), env.opId(), env.result(), env.error(), env.durationMs(),
                withResolution(env.extras()));
    }

    PolicyGate.Operation gateOperation() {
        return new PolicyGate.Operation(op.connector().connectorId(), request.opId(),
                SafetyLevel.valueOf(op.view().safetyLevel().toUpperCase(Locale.ROOT)), op.view().requiresApproval(),
                op.dispatchable());
    }

    PolicyGate.TargetRef gateTarget() {
        return new PolicyGate.TargetRef(target.id(), target.name(), target.product());
    }
}
