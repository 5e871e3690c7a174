package dev.backplane.kernel.dispatch;

import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.catalog.Implementations;
import dev.backplane.kernel.credentials.CredentialService;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.governance.Approvals;
import dev.backplane.kernel.governance.PolicyGate;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalKind;
import dev.backplane.kernel.plugins.ConnectorSessions;
import dev.backplane.kernel.results.ResultHandles;
import dev.backplane.kernel.targets.Target;
import dev.backplane.kernel.targets.TargetService;
import dev.backplane.kernel.util.Digests;
import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.HttpPreview;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.OperationResult;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.Redaction;
import dev.backplane.plugin.api.SafetyLevel;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
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
 */
public final class Dispatcher {

    private final CatalogService catalog;
    private final Implementations implementations;
    private final TargetService targets;
    private final CredentialService credentials;
    private final ConnectorSessions sessions;
    private final AuditLog audit;
    private final Approvals approvals;
    private final PolicyGate gate;
    private final Reducer reducer;
    private final ParamsValidator validator = new ParamsValidator();
    private final DispatchEvents events;
    private final DispatchMetrics metrics;

    public Dispatcher(CatalogService catalog, Implementations implementations, TargetService targets,
                      CredentialService credentials, ConnectorSessions sessions, AuditLog audit, Approvals approvals,
                      PolicyGate gate, ResultHandles handles, DispatchEvents events, DispatchMetrics metrics) {
        this.implementations = implementations;
        this.events = events;
        this.metrics = metrics;
        metrics.cache(validator);
        this.gate = gate;
        this.catalog = catalog;
        this.targets = targets;
        this.credentials = credentials;
        this.sessions = sessions;
        this.audit = audit;
        this.approvals = approvals;
        this.reducer = new Reducer(handles);
    }

    /** What the gate needs about the call, resolved once. */
    private record Resolved(CatalogService.EffectiveOperation op, Target target, AuditLog.Entry entry,
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

        PolicyGate.Operation gateOperation() {
            return new PolicyGate.Operation(op.connector().connectorId(), request.opId(),
                    SafetyLevel.valueOf(op.view().safetyLevel().toUpperCase(Locale.ROOT)), op.view().requiresApproval(),
                    op.dispatchable());
        }

        PolicyGate.TargetRef gateTarget() {
            return new PolicyGate.TargetRef(target.id(), target.name(), target.product());
        }
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
            opClass = Optional.of(catalog.descriptor(caller.tenantId(), req.connectorId(), req.opId()).opClass()
                    .wireName());
        } catch (RuntimeException gone) {
            opClass = Optional.empty(); // the operation left the catalog while the call ran
        }
        Optional<String> namespace = Optional.ofNullable(req.params().get("namespace")).filter(String.class::isInstance)
                .map(String.class::cast).filter(v -> !v.isEmpty() && v.length() <= 253);
        String connectorId = Optional.ofNullable(env.extras().get("resolved_connector_id")).map(Object::toString)
                .orElse(req.connectorId());
        metrics.call(connectorId, opClass.orElse("unknown"), env.status(), env.durationMs());
        events.publish(new DispatchEvents.Event(java.time.Instant.now(), caller.tenantId(), caller.sub(),
                caller.kind().wireName(), connectorId, req.opId(), opClass, req.target(), namespace, env.status(),
                Optional.ofNullable(env.extras().get("error_code")).map(Object::toString), req.workRef(), env.durationMs(),
                Optional.ofNullable(env.extras().get("audit_id")).map(Object::toString),
                caller.sessionId().map(Object::toString)));
    }

    private ResultEnvelope gateAndRun(Caller caller, CallRequest req, DispatchProgress progress) {
        long t0 = System.nanoTime();
        Resolved r = resolve(caller, req);
        List<String> problems = validator.validate(r.connectorId() + "/" + req.opId(),
                r.op().descriptor().paramsSchema(), req.params());
        if (!problems.isEmpty()) {
            audit.record(r.entry(), "error", Optional.of("invalid_params"), Optional.empty(), r.withResolution(Map.of()));
            return invalidParams(r, problems, t0);
        }
        PolicyGate.Decision decision = metrics.time(DispatchMetrics.Stage.GATE,
                () -> gate.decide(caller, r.gateOperation(), r.gateTarget(), () -> checkPreviewHash(req, r)));
        return switch (decision) {
            case PolicyGate.Allow allow -> {
                progress.reached(DispatchProgress.Step.GATE_PASSED);
                yield execute(caller, req, r, t0, Optional.empty(), progress);
            }
            case PolicyGate.Deny deny -> denied(r, deny, Optional.empty(), t0);
            case PolicyGate.Park park -> park(caller, req, r, t0);
        };
    }

    private ResultEnvelope denied(Resolved r, PolicyGate.Deny deny, Optional<UUID> approvalId, long t0) {
        String code = deny.code().wireName();
        audit.record(r.entry(), "denied", Optional.of(code), approvalId, r.withResolution(
                deny.reason().<Map<String, Object>>map(reason -> Map.of("reason", reason)).orElse(Map.of())));
        Map<String, Object> extras = new LinkedHashMap<>(r.withResolution(Map.of()));
        extras.put("error_code", code);
        deny.reason().ifPresent(reason -> extras.put("reason", reason));
        return envelope(ResultEnvelope.DENIED, r.request().opId(), null, deny.message(), t0, extras);
    }

    private static ResultEnvelope invalidParams(Resolved r, List<String> problems, long t0) {
        return envelope(ResultEnvelope.ERROR, r.request().opId(), null, "params do not match the operation's schema"
                + (r.choice().rerouted() ? " of " + r.connectorId() + ", the connector that serves this target" : ""),
                t0, r.withResolution(Map.of("error_code", "invalid_params", "validation_errors", problems)));
    }

    /**
     * Resolves a call as {@link #call} would, without running it: unknown connector, operation or target
     * answer the same errors at once, so an async call does not hand out a handle for a call that
     * cannot start.
     */
    public void checkResolvable(Caller caller, CallRequest req) {
        resolve(caller, req);
    }

    public ResultEnvelope preview(Caller caller, CallRequest req) {
        long t0 = System.nanoTime();
        Resolved r = resolve(caller, req);
        List<String> problems = validator.validate(r.connectorId() + "/" + req.opId(),
                r.op().descriptor().paramsSchema(), req.params());
        if (!problems.isEmpty()) {
            return invalidParams(r, problems, t0);
        }
        if (!previewable(r)) {
            return envelope(ResultEnvelope.UNAVAILABLE, req.opId(), null, "a " + r.op().view().shape() + " operation "
                    + "is not a single HTTP request or remote command; it cannot be previewed (nothing was sent)", t0,
                    r.withResolution(Map.of()));
        }
        Optional<HttpPreview> preview = previewOf(r);
        if (preview.isEmpty()) {
            return envelope(ResultEnvelope.UNAVAILABLE, req.opId(), null, "the connector offers no preview for this "
                    + "operation (nothing was sent)", t0, r.withResolution(Map.of()));
        }
        Map<String, Object> would = new LinkedHashMap<>();
        would.put("method", preview.get().method());
        would.put("path", preview.get().path());
        would.put("query", preview.get().query());
        would.put("body", preview.get().body().orElse(null));
        would.put("preview_hash", hash(r, preview.get()));
        return envelope(ResultEnvelope.OK, req.opId(), would, null, t0, r.withResolution(Map.of()));
    }

    private Resolved resolve(Caller caller, CallRequest req) {
        if (req.connectorId() == null || req.opId() == null || req.target() == null) {
            throw CommonErrors.INVALID_REQUEST.error("connector_id, op_id and target are required",
                    Map.of());
        }
        // the named connector must know the operation (unknown_connector / unknown_operation, as ever)
        CatalogService.EffectiveOperation op = catalog.effective(caller.tenantId(), req.connectorId(), req.opId());
        Target target = targets.describe(caller.tenantId(), req.target());
        Implementations.Choice choice = implementations.forCall(caller.tenantId(), target.resolverSubject(),
                req.connectorId(), req.opId());
        if (choice.rerouted()) {
            op = catalog.effective(caller.tenantId(), choice.connector().connectorId(), req.opId());
        }
        AuditLog.Entry entry = AuditLog.Entry.by(caller, AuditClass.of(op.descriptor().opClass()), req.opId())
                .connector(op.connector().connectorId()).target(target.name(), target.id()).workRef(req.workRef())
                .paramsHash(Digests.sha256Hex(JsonMapping.write(new TreeMap<>(req.params()))));
        return new Resolved(op, target, entry, new OperationRequest(req.opId(), req.params(), req.workRef()), choice);
    }

    private ResultEnvelope park(Caller caller, CallRequest req, Resolved r, long t0) {
        Map<String, Object> resolved = new LinkedHashMap<>();
        resolved.put("connector_id", r.connectorId());
        resolved.putAll(r.choice().extras());
        resolved.put("op_id", req.opId());
        resolved.put("target", r.target().name());
        resolved.put("host", r.target().host() + ":" + r.target().port());
        resolved.put("safety_level", r.op().view().safetyLevel());
        resolved.put("description", r.op().view().description());
        // whoever may see the approval (every member, read_only too) sees the params with the values the plugin
        // declares secret hidden, and secret-looking keys as the fallback; the real ones stay in the row to run
        resolved.put("params", Redaction.redact(req.params(), r.op().descriptor().secretParams()));
        UUID approvalId = approvals.park(new Approvals.Parked(caller.tenantId(), caller.sub(), caller.kind().wireName(),
                caller.clientId().filter(id -> caller.kind() == PrincipalKind.AGENT),
                r.connectorId(), req.opId(), r.target().name(), r.target().id(), req.params(), resolved, req.workRef(),
                caller.sessionId()));
        audit.record(r.entry(), "awaiting_approval", Optional.of("awaiting_approval"), Optional.of(approvalId),
                r.withResolution(Map.of()));
        return envelope(ResultEnvelope.AWAITING_APPROVAL, req.opId(), null, null, t0, r.withResolution(
                Map.of("error_code", "awaiting_approval", "approval_request_id", approvalId.toString())));
    }

    /**
     * Runs a call released by an approval through the rest of the pipeline, as the requester's call:
     * the review state is checked again (an operation disabled since parking is denied), then
     * credentials, the plugin call, reduction and the audit row (linked to the approval).
     */
    public ResultEnvelope executeApproved(UUID tenant, Approvals.Released released) {
        Approvals.Approval a = released.approval();
        CallRequest req = new CallRequest(a.connectorId(), a.opId(), a.target(), released.params(), a.workRef(),
                Optional.empty(), Optional.empty());
        Caller requester = new Caller(a.requester(), Optional.empty(), Optional.of(tenant), tenant,
                dev.backplane.kernel.identity.Role.OPERATOR, false, kindOf(released.requesterKind()),
                released.requesterClientId(), released.requesterSessionId());
        ResultEnvelope env = metrics.traced(req.connectorId(), req.opId(), () -> runApproved(requester, req, released));
        announce(requester, req, env);
        return env;
    }

    private ResultEnvelope runApproved(Caller requester, CallRequest req, Approvals.Released released) {
        long t0 = System.nanoTime();
        Approvals.Approval a = released.approval();
        Resolved r;
        try {
            r = resolve(requester, req);
        } catch (dev.backplane.kernel.errors.DomainException e) {
            if (!e.code().equals("no_connector") && !e.code().equals("ambiguous_connector")) {
                throw e;
            }
            // the approved connector no longer serves the target and nothing else does: nothing runs
            return envelope(ResultEnvelope.ERROR, a.opId(), null, "connector " + a.connectorId() + " no longer serves "
                    + "target " + a.target() + ": " + e.getMessage() + "; re-issue the call", t0,
                    Map.of("error_code", "resolution_changed"));
        }
        if (!r.target().id().equals(released.targetId())) {
            return envelope(ResultEnvelope.ERROR, a.opId(), null, "target " + a.target() + " was replaced since the call "
                    + "was parked; re-issue the call", t0, Map.of("error_code", "target_changed"));
        }
        if (r.choice().rerouted()) {
            // what was approved is a call through a.connectorId(); it no longer serves the target (a probe moved
            // its version, or the connector was disabled): nothing runs through a connector nobody approved
            audit.record(r.entry(), "error", Optional.of("resolution_changed"), Optional.of(a.id()),
                    r.withResolution(Map.of()));
            return envelope(ResultEnvelope.ERROR, a.opId(), null, "connector " + a.connectorId() + " no longer serves "
                    + "target " + a.target() + " (" + r.choice().reason() + "); re-issue the call", t0,
                    r.withResolution(Map.of("error_code", "resolution_changed")));
        }
        if (gate.recheckReleased(requester, r.gateOperation(), r.gateTarget()) instanceof PolicyGate.Deny deny) {
            return denied(r, deny, Optional.of(a.id()), t0);
        }
        ResultEnvelope env = execute(requester, req, r, t0, Optional.of(a.id()), DispatchProgress.NONE);
        Object auditId = env.extras().get("audit_id");
        if (auditId != null) {
            approvals.linkExecution(a.id(), UUID.fromString(auditId.toString()));
        }
        Map<String, Object> extras = new LinkedHashMap<>(env.extras());
        extras.put("approval_request_id", a.id().toString());
        return new ResultEnvelope(env.status(), env.opId(), env.result(), env.error(), env.durationMs(), extras);
    }

    private static dev.backplane.kernel.identity.PrincipalKind kindOf(String wire) {
        for (var k : PrincipalKind.values()) {
            if (k.wireName().equals(wire)) {
                return k;
            }
        }
        return PrincipalKind.HUMAN;
    }

    /** @param approvalId the approval that released the call, recorded on its audit row from the start */
    private ResultEnvelope execute(Caller caller, CallRequest req, Resolved r, long t0, Optional<UUID> approvalId,
                                   DispatchProgress progress) {
        Credential credential;
        try {
            credential = metrics.time(DispatchMetrics.Stage.CREDENTIAL,
                    () -> credentials.resolve(Optional.of(caller.tenantId()), r.target().secretRef()));
        } catch (ConnectorException e) {
            audit.record(r.entry(), "error", Optional.of(e.code().wireName()), Optional.empty(), r.withResolution(Map.of()));
            return withResolution(r, failure(req.opId(), e, t0));
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
            return withResolution(r, withAudit(env, auditId));
        } catch (ConnectorException e) {
            ResultEnvelope env = failure(req.opId(), e, t0);
            audit.finish(auditId, "error", Optional.of(e.code().wireName()), env.durationMs());
            return withResolution(r, withAudit(env, auditId));
        } catch (RuntimeException | Error e) {
            // whatever failed after the row was begun (reduction, a plugin bug), the row gets an outcome
            audit.finish(auditId, "error", Optional.of("internal_error"), (System.nanoTime() - t0) / 1_000_000);
            throw e;
        }
    }

    private Optional<String> checkPreviewHash(CallRequest req, Resolved r) {
        if (req.previewHash().isEmpty()) {
            return Optional.of("operation " + req.opId() + " is dangerous: preview it first (svc operation preview) "
                    + "and pass the preview_hash of that very request");
        }
        if (!previewable(r)) {
            return Optional.of("operation " + req.opId() + " is dangerous and cannot be previewed; it cannot be "
                    + "dispatched with a preview hash");
        }
        Optional<HttpPreview> now = previewOf(r);
        if (now.isEmpty() || !hash(r, now.get()).equals(req.previewHash().get())) {
            return Optional.of("the preview_hash does not match a preview of this request now; preview again and "
                    + "pass the new hash");
        }
        return Optional.empty();
    }

    /** One HTTP request or one remote command: the shapes whose exact effect a preview can show. */
    private static boolean previewable(Resolved r) {
        return r.op().descriptor().shape() instanceof OperationShape.Http
                || r.op().descriptor().shape() instanceof OperationShape.Command;
    }

    private Optional<HttpPreview> previewOf(Resolved r) {
        Credential none = new Credential(Map.of());
        try {
            return sessions.call(r.op().connector(), r.target().spec(), credentialOrEmpty(r, none), c -> c.preview(r.request()));
        } catch (ConnectorException e) {
            return Optional.empty();
        }
    }

    private Credential credentialOrEmpty(Resolved r, Credential none) {
        try {
            return credentials.resolve(Optional.of(r.entry().tenantId()), r.target().secretRef());
        } catch (ConnectorException e) {
            return none;
        }
    }

    private static String hash(Resolved r, HttpPreview p) {
        Map<String, Object> canonical = new TreeMap<>();
        canonical.put("connector_id", r.op().connector().connectorId());
        canonical.put("op_id", r.request().opId());
        canonical.put("target_id", r.target().id().toString());
        canonical.put("method", p.method());
        canonical.put("path", p.path());
        canonical.put("query", new TreeMap<>(p.query()));
        canonical.put("body", p.body().orElse(null));
        return "sha256:" + Digests.sha256Hex(JsonMapping.write(canonical));
    }

    private static ResultEnvelope failure(String opId, ConnectorException e, long t0) {
        Map<String, Object> extras = new LinkedHashMap<>(e.extras());
        extras.put("error_code", e.code().wireName());
        return envelope(ResultEnvelope.ERROR, opId, null, e.getMessage(), t0, extras);
    }

    private static ResultEnvelope withResolution(Resolved r, ResultEnvelope env) {
        if (!r.choice().rerouted()) {
            return env;
        }
        return new ResultEnvelope(env.status(), env.opId(), env.result(), env.error(), env.durationMs(),
                r.withResolution(env.extras()));
    }

    private static ResultEnvelope withAudit(ResultEnvelope env, UUID auditId) {
        Map<String, Object> extras = new LinkedHashMap<>(env.extras());
        extras.put("audit_id", auditId.toString());
        return new ResultEnvelope(env.status(), env.opId(), env.result(), env.error(), env.durationMs(), extras);
    }

    private static ResultEnvelope envelope(String status, String opId, Object result, String error, long t0,
                                           Map<String, Object> extras) {
        return new ResultEnvelope(status, opId, result, error, (System.nanoTime() - t0) / 1_000_000, extras);
    }
}
