package dev.backplane.kernel.dispatch;

import static dev.backplane.kernel.dispatch.Envelopes.envelope;
import static dev.backplane.kernel.dispatch.Envelopes.failure;
import static dev.backplane.kernel.dispatch.Envelopes.withAudit;

import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.credentials.CredentialService;
import dev.backplane.kernel.governance.PolicyGate;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.plugins.ConnectorSessions;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.OperationResult;
import dev.backplane.plugin.api.OperationShape;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The pipeline's last stages for a resolved call: a denial's audit row, or credentials, the audit row begun
 * (fail-closed, before the target is touched), the plugin call, reduction, and the row's outcome.
 */
final class CallExecution {

    private final CredentialService credentials;
    private final ConnectorSessions sessions;
    private final AuditLog audit;
    private final Reducer reducer;
    private final DispatchMetrics metrics;

    CallExecution(CredentialService credentials, ConnectorSessions sessions, AuditLog audit, Reducer reducer,
                  DispatchMetrics metrics) {
        this.credentials = credentials;
        this.sessions = sessions;
        this.audit = audit;
        this.reducer = reducer;
        this.metrics = metrics;
    }

    /** A call whose params do not match the operation's schema (its audit row is the caller's to write). */
    static ResultEnvelope invalidParams(ResolvedCall r, List<String> problems, long t0) {
        return envelope(ResultEnvelope.ERROR, r.request().opId(), null, "params do not match the operation's schema"
                + (r.choice().rerouted() ? " of " + r.connectorId() + ", the connector that serves this target" : ""),
                t0, r.withResolution(Map.of("error_code", "invalid_params", "validation_errors", problems)));
    }

    /** Records the denial and answers it; {@code approvalId} is the approval that released the call, if one did. */
    ResultEnvelope denied(ResolvedCall r, PolicyGate.Deny deny, Optional<UUID> approvalId, long t0) {
        String code = deny.code().wireName();
        audit.record(r.entry(), "denied", Optional.of(code), approvalId, r.withResolution(
                deny.reason().<Map<String, Object>>map(reason -> Map.of("reason", reason)).orElse(Map.of())));
        Map<String, Object> extras = new LinkedHashMap<>(r.withResolution(Map.of()));
        extras.put("error_code", code);
        deny.reason().ifPresent(reason -> extras.put("reason", reason));
        return envelope(ResultEnvelope.DENIED, r.request().opId(), null, deny.message(), t0, extras);
    }

    /** @param approvalId the approval that released the call, recorded on its audit row from the start */
    ResultEnvelope execute(Caller caller, CallRequest req, ResolvedCall r, long t0, Optional<UUID> approvalId,
                           DispatchProgress progress) {
        Credential credential;
        try {
            credential = metrics.time(DispatchMetrics.Stage.CREDENTIAL,
                    () -> credentials.resolve(Optional.of(caller.tenantId()), r.target().secretRef()));
        } catch (ConnectorException e) {
            audit.record(r.entry(), "error", Optional.of(e.code().wireName()), Optional.empty(), r.withResolution(Map.of()));
            return r.withResolution(failure(req.opId(), e, t0));
        }
        progress.reached(DispatchProgress.Step.CREDENTIAL_RESOLVED);
        // fail-closed: throws before the target is touched
        UUID auditId = metrics.time(DispatchMetrics.Stage.AUDIT_INTENT, () -> audit.begin(r.entry(), approvalId, r.withResolution(Map.of())));
        try {
            progress.reached(DispatchProgress.Step.CALLING_TARGET);
            OperationResult result = metrics.time(DispatchMetrics.Stage.PLUGIN_CALL,
                    () -> sessions.call(r.op().connector(), r.target().spec(), credential, new ConnectorSessions.Lent(
                            (purpose, fields) -> credentials.stageIssued(caller.tenantId(), r.target().secretRef(),
                                    purpose, fields),
                            new CompositeAudit(audit, r.entry(), auditId, r.op().connector().catalog()),
                            r.op().descriptor().shape() instanceof OperationShape.Composite),
                            c -> c.invoke(r.request())));
            ResultEnvelope env = switch (result) {
                case OperationResult.Rows rows -> {
                    progress.reached(DispatchProgress.Step.REDUCING_RESULT);
                    Reducer.Reduced reduced = reducer.reduce(caller.tenantId(), caller.sub(), req.opId(), rows.rows());
                    Map<String, Object> extras = new LinkedHashMap<>(rows.extras());
                    extras.putAll(reduced.extras());
                    yield envelope(ResultEnvelope.OK, req.opId(), reduced.result(), null, t0, extras);
                }
                case OperationResult.Document doc -> envelope(ResultEnvelope.OK, req.opId(), doc.value(), null, t0, Map.of());
                case OperationResult.Failure f -> {
                    Map<String, Object> extras = new LinkedHashMap<>(f.extras());
                    extras.put("error_code", f.code().wireName());
                    yield envelope(ResultEnvelope.ERROR, req.opId(), null, f.message(), t0, extras);
                }
            };
            Object code = env.extras().get("error_code");
            metrics.time(DispatchMetrics.Stage.AUDIT_OUTCOME, () -> {
                audit.finish(auditId, env.status(), Optional.ofNullable(code).map(Object::toString), env.durationMs());
                return null;
            });
            return r.withResolution(withAudit(env, auditId));
        } catch (ConnectorException e) {
            ResultEnvelope env = failure(req.opId(), e, t0);
            audit.finish(auditId, "error", Optional.of(e.code().wireName()), env.durationMs());
            return r.withResolution(withAudit(env, auditId));
        } catch (RuntimeException | Error e) {
            // whatever failed after the row was begun (reduction, a plugin bug), the row gets an outcome
            audit.finish(auditId, "error", Optional.of("internal_error"), (System.nanoTime() - t0) / 1_000_000);
            throw e;
        }
    }
}
