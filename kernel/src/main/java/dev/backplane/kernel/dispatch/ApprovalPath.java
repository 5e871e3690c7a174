package dev.backplane.kernel.dispatch;

import static dev.backplane.kernel.dispatch.Envelopes.envelope;

import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.governance.Approvals;
import dev.backplane.kernel.governance.ParkedFacts;
import dev.backplane.kernel.governance.PolicyGate;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalKind;
import dev.backplane.kernel.identity.Role;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.HttpPreview;
import dev.backplane.plugin.api.Redaction;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The approval side of the pipeline: parking a call the gate holds for approval (the request, its audit row), and
 * running a call an approval released, as its requester's, once resolution, target and review state still hold.
 */
final class ApprovalPath {

    private static final System.Logger LOG = System.getLogger(ApprovalPath.class.getName());

    private final CallResolver resolver;
    private final CallExecution execution;
    private final AuditLog audit;
    private final Approvals approvals;
    private final PolicyGate gate;

    ApprovalPath(CallResolver resolver, CallExecution execution, AuditLog audit, Approvals approvals, PolicyGate gate) {
        this.resolver = resolver;
        this.execution = execution;
        this.audit = audit;
        this.approvals = approvals;
        this.gate = gate;
    }

    ResultEnvelope park(Caller caller, CallRequest req, ResolvedCall r, long t0) {
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
        Object params = Redaction.redact(req.params(), r.op().descriptor().secretParams());
        resolved.put("params", params);
        new ParkedFacts(Optional.of(preview(r, !params.equals(req.params()))), Optional.of(caller.kind().wireName()),
                caller.sessionId().map(Object::toString)).writeTo(resolved);
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
     * What the parked call would send, for approvers to read: the request of a single HTTP request or remote command
     * as the connector previews it, unless a param value is secret — a secret can sit anywhere in a path, query or
     * body, so such a preview is withheld whole rather than shown half-redacted. Computing it sends nothing.
     */
    private Map<String, Object> preview(ResolvedCall r, boolean carriesSecrets) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (!CallResolver.previewable(r)) {
            out.put("available", false);
            out.put("why", "the operation is not a single HTTP request or remote command");
            return out;
        }
        if (carriesSecrets) {
            out.put("available", false);
            out.put("why", "withheld: the call carries a value the operation declares secret");
            return out;
        }
        Optional<HttpPreview> p;
        try {
            p = resolver.previewOf(r);
        } catch (ConnectorException e) {
            // every member reads this, and a plugin's message may quote what it was given: the code and class only
            String cause = String.valueOf(e.extras().getOrDefault("exception_class", e.code().wireName()));
            LOG.log(System.Logger.Level.WARNING, "preview of {0} on connector {1} failed: {2} ({3})",
                    r.request().opId(), r.connectorId(), e.code().wireName(), cause);
            out.put("available", false);
            out.put("why", "the connector's preview failed (" + e.code().wireName() + "); approve on the params alone"
                    + " or ask the requester");
            return out;
        }
        if (p.isEmpty()) {
            out.put("available", false);
            out.put("why", "the connector offers no preview for this operation");
            return out;
        }
        out.put("available", true);
        out.put("method", p.get().method());
        out.put("path", p.get().path());
        out.put("query", p.get().query());
        out.put("body", p.get().body().orElse(null));
        return out;
    }

    /** The call an approval released, as its requester made it (the kernel holds no preview hash for it). */
    static CallRequest requestOf(Approvals.Released released) {
        Approvals.Approval a = released.approval();
        return new CallRequest(a.connectorId(), a.opId(), a.target(), released.params(), a.workRef(),
                Optional.empty(), Optional.empty());
    }

    /** The requester of a released call, acting in {@code tenant} as an operator, in the session it parked from. */
    static Caller requesterOf(UUID tenant, Approvals.Released released) {
        return new Caller(released.approval().requester(), Optional.empty(), Optional.of(tenant), tenant,
                Role.OPERATOR, false, kindOf(released.requesterKind()), released.requesterClientId(),
                released.requesterSessionId());
    }

    ResultEnvelope runApproved(Caller requester, CallRequest req, Approvals.Released released) {
        long t0 = System.nanoTime();
        Approvals.Approval a = released.approval();
        ResolvedCall r;
        try {
            r = resolver.resolve(requester, req);
        } catch (DomainException e) {
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
            return execution.denied(r, deny, Optional.of(a.id()), t0);
        }
        ResultEnvelope env = execution.execute(requester, req, r, t0, Optional.of(a.id()), DispatchProgress.NONE);
        Object auditId = env.extras().get("audit_id");
        if (auditId != null) {
            approvals.linkExecution(a.id(), UUID.fromString(auditId.toString()));
        }
        return Envelopes.withExtra(env, "approval_request_id", a.id().toString());
    }

    /** The principal kind a parked call recorded by wire name; an unknown name is a human's. */
    static PrincipalKind kindOf(String wire) {
        for (var k : PrincipalKind.values()) {
            if (k.wireName().equals(wire)) {
                return k;
            }
        }
        return PrincipalKind.HUMAN;
    }
}
