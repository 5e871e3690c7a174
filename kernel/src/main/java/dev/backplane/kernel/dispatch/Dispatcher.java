package dev.backplane.kernel.dispatch;

import static dev.backplane.kernel.dispatch.Envelopes.envelope;

import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.catalog.Implementations;
import dev.backplane.kernel.credentials.CredentialService;
import dev.backplane.kernel.governance.Approvals;
import dev.backplane.kernel.governance.PolicyGate;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.plugins.ConnectorSessions;
import dev.backplane.kernel.results.ResultHandles;
import dev.backplane.kernel.targets.TargetService;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.HttpPreview;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * THE dispatch pipeline (ARCHITECTURE §5), used by every surface: resolve → validate params →
 * policy gate → credentials → plugin call → reduce → audit. Audit is fail-closed: the row is written
 * as started before the target is called, so a dispatch whose audit cannot be written never reaches
 * the target.
 *
 * <p>Resolve picks the connector that serves the target ({@link Implementations#forCall}): the one the
 * caller named when it serves the target's product and version, else the enabled one that does and offers
 * the same operation. Everything after — the gate, grants, preview hash, approval, audit row — is about the
 * resolved connector, and a rerouted call says so on its audit row and in its result's extras.
 *
 * <p>The stages live in {@link CallResolver} (resolution, audit entry, preview hash), {@link ApprovalPath}
 * (parking, a released call) and {@link CallExecution} (credentials, plugin call, reduction, audit outcome);
 * their order is {@link #gateAndRun}.
 */
public final class Dispatcher {

    private final CatalogService catalog;
    private final AuditLog audit;
    private final PolicyGate gate;
    private final ParamsValidator validator = new ParamsValidator();
    private final DispatchEvents events;
    private final DispatchMetrics metrics;
    private final CallResolver resolver;
    private final CallExecution execution;
    private final ApprovalPath approvalPath;

    public Dispatcher(CatalogService catalog, Implementations implementations, TargetService targets,
                      CredentialService credentials, ConnectorSessions sessions, AuditLog audit, Approvals approvals,
                      PolicyGate gate, ResultHandles handles, DispatchEvents events, DispatchMetrics metrics) {
        this.events = events;
        this.metrics = metrics;
        metrics.cache(validator);
        this.gate = gate;
        this.catalog = catalog;
        this.audit = audit;
        this.resolver = new CallResolver(catalog, implementations, targets, credentials, sessions);
        this.execution = new CallExecution(credentials, sessions, audit, new Reducer(handles), metrics);
        this.approvalPath = new ApprovalPath(resolver, execution, audit, approvals, gate);
    }

    /** Runs one call through the whole pipeline and announces its outcome (the broadcast hook). */
    public ResultEnvelope call(Caller caller, CallRequest req) {
        return call(caller, req, DispatchProgress.NONE);
    }

    /** {@link #call(Caller, CallRequest)}, telling {@code progress} each step the call reaches. */
    public ResultEnvelope call(Caller caller, CallRequest req, DispatchProgress progress) {
        ResultEnvelope env = metrics.traced(req.connectorId(), req.opId(), () -> gateAndRun(caller, req, progress));
        announce(caller, req, env);
        return env;
    }

    private void announce(Caller caller, CallRequest req, ResultEnvelope env) {
        Optional<String> opClass;
        try {
            opClass = Optional.of(catalog.effective(caller.tenantId(), req.connectorId(), req.opId()).view().opClass());
        } catch (RuntimeException gone) {
            opClass = Optional.empty(); // the operation left the catalog while the call ran
        }
        Optional<String> namespace = Optional.ofNullable(req.params().get("namespace")).filter(String.class::isInstance)
                .map(String.class::cast).filter(v -> !v.isEmpty() && v.length() <= 253);
        String connectorId = Optional.ofNullable(env.extras().get("resolved_connector_id")).map(Object::toString)
                .orElse(req.connectorId());
        metrics.call(connectorId, opClass.orElse("unknown"), env.status(), env.durationMs());
        events.publish(new DispatchEvents.Event(Instant.now(), caller.tenantId(), caller.sub(),
                caller.kind().wireName(), connectorId, req.opId(), opClass, req.target(), namespace, env.status(),
                Optional.ofNullable(env.extras().get("error_code")).map(Object::toString), req.workRef(), env.durationMs(),
                Optional.ofNullable(env.extras().get("audit_id")).map(Object::toString),
                caller.sessionId().map(Object::toString)));
    }

    /** The pipeline, stage by stage: resolve, validate, gate, then run, deny or park. */
    private ResultEnvelope gateAndRun(Caller caller, CallRequest req, DispatchProgress progress) {
        long t0 = System.nanoTime();
        ResolvedCall r = resolver.resolve(caller, req);
        List<String> problems = validator.validate(r.connectorId() + "/" + req.opId(),
                r.op().descriptor().paramsSchema(), req.params());
        if (!problems.isEmpty()) {
            audit.record(r.entry(), "error", Optional.of("invalid_params"), Optional.empty(), r.withResolution(Map.of()));
            return CallExecution.invalidParams(r, problems, t0);
        }
        PolicyGate.Decision decision = metrics.time(DispatchMetrics.Stage.GATE,
                () -> gate.decide(caller, r.gateOperation(), r.gateTarget(), () -> resolver.checkPreviewHash(req, r)));
        return switch (decision) {
            case PolicyGate.Allow allow -> {
                progress.reached(DispatchProgress.Step.GATE_PASSED);
                yield execution.execute(caller, req, r, t0, Optional.empty(), progress);
            }
            case PolicyGate.Deny deny -> execution.denied(r, deny, Optional.empty(), t0);
            case PolicyGate.Park park -> approvalPath.park(caller, req, r, t0);
        };
    }

    /**
     * Resolves a call as {@link #call} would, without running it: unknown connector, operation or target
     * answer the same errors at once, so an async call does not hand out a handle for a call that
     * cannot start.
     */
    public void checkResolvable(Caller caller, CallRequest req) {
        resolver.resolve(caller, req);
    }

    public ResultEnvelope preview(Caller caller, CallRequest req) {
        long t0 = System.nanoTime();
        ResolvedCall r = resolver.resolve(caller, req);
        List<String> problems = validator.validate(r.connectorId() + "/" + req.opId(),
                r.op().descriptor().paramsSchema(), req.params());
        if (!problems.isEmpty()) {
            return CallExecution.invalidParams(r, problems, t0);
        }
        if (!CallResolver.previewable(r)) {
            return envelope(ResultEnvelope.UNAVAILABLE, req.opId(), null, "a " + r.op().view().shape() + " operation "
                    + "is not a single HTTP request or remote command; it cannot be previewed (nothing was sent)", t0,
                    r.withResolution(Map.of()));
        }
        Optional<HttpPreview> preview;
        try {
            preview = resolver.previewOf(r);
        } catch (ConnectorException e) {
            return r.withResolution(Envelopes.failure(req.opId(), e, t0));
        }
        if (preview.isEmpty()) {
            return envelope(ResultEnvelope.UNAVAILABLE, req.opId(), null, "the connector offers no preview for this "
                    + "operation (nothing was sent)", t0, r.withResolution(Map.of()));
        }
        Map<String, Object> would = new LinkedHashMap<>();
        would.put("method", preview.get().method());
        would.put("path", preview.get().path());
        would.put("query", preview.get().query());
        would.put("body", preview.get().body().orElse(null));
        would.put("preview_hash", CallResolver.hash(r, preview.get()));
        return envelope(ResultEnvelope.OK, req.opId(), would, null, t0, r.withResolution(Map.of()));
    }

    /**
     * Runs a call released by an approval through the rest of the pipeline, as the requester's call:
     * the review state is checked again (an operation disabled since parking is denied), then
     * credentials, the plugin call, reduction and the audit row (linked to the approval).
     */
    public ResultEnvelope executeApproved(UUID tenant, Approvals.Released released) {
        CallRequest req = ApprovalPath.requestOf(released);
        Caller requester = ApprovalPath.requesterOf(tenant, released);
        ResultEnvelope env = metrics.traced(req.connectorId(), req.opId(),
                () -> approvalPath.runApproved(requester, req, released));
        announce(requester, req, env);
        return env;
    }
}
