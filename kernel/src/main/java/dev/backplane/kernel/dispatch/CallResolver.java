package dev.backplane.kernel.dispatch;

import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.catalog.Implementations;
import dev.backplane.kernel.credentials.CredentialService;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.plugins.ConnectorSessions;
import dev.backplane.kernel.targets.Target;
import dev.backplane.kernel.targets.TargetService;
import dev.backplane.kernel.util.Digests;
import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.HttpPreview;
import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.OperationShape;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The pipeline's first stage: resolves a call to the operation of the connector that serves its target
 * ({@link Implementations#forCall}) and the audit entry of the call; and the previews a dangerous call is
 * checked against (the preview hash).
 */
final class CallResolver {

    private final CatalogService catalog;
    private final Implementations implementations;
    private final TargetService targets;
    private final CredentialService credentials;
    private final ConnectorSessions sessions;

    CallResolver(CatalogService catalog, Implementations implementations, TargetService targets,
                 CredentialService credentials, ConnectorSessions sessions) {
        this.catalog = catalog;
        this.implementations = implementations;
        this.targets = targets;
        this.credentials = credentials;
        this.sessions = sessions;
    }

    ResolvedCall resolve(Caller caller, CallRequest req) {
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
        // the tenant's class (an admin's edit-op --op-class), not only the plugin's: a credential read is audited as one
        AuditLog.Entry entry = auditEntry(caller, AuditClass.of(OpClass.fromWireName(op.view().opClass())
                        .orElse(op.descriptor().opClass())),
                op.connector().connectorId(), target, req);
        return new ResolvedCall(op, target, entry, new OperationRequest(req.opId(), req.params(), req.workRef()),
                choice);
    }

    /**
     * The entry every audit row of the call starts from: the caller, the class of the operation, the connector that
     * serves the call, the target by name and id, the work reference and the hash of the params (key order aside).
     */
    static AuditLog.Entry auditEntry(Caller caller, AuditClass opClass, String connectorId, Target target,
                                     CallRequest req) {
        return AuditLog.Entry.by(caller, opClass, req.opId()).connector(connectorId).target(target.name(), target.id())
                .workRef(req.workRef()).paramsHash(Digests.sha256Hex(JsonMapping.write(new TreeMap<>(req.params()))));
    }

    /** Why the gate may not let a dangerous call through on its preview hash, or empty when the hash matches now. */
    Optional<String> checkPreviewHash(CallRequest req, ResolvedCall r) {
        if (req.previewHash().isEmpty()) {
            return Optional.of("operation " + req.opId() + " is dangerous: preview it first (svc operation preview) "
                    + "and pass the preview_hash of that very request");
        }
        if (!previewable(r)) {
            return Optional.of("operation " + req.opId() + " is dangerous and cannot be previewed; it cannot be "
                    + "dispatched with a preview hash");
        }
        Optional<HttpPreview> now;
        try {
            now = previewOf(r);
        } catch (ConnectorException e) {
            return Optional.of("the preview of this request failed now (" + e.code().wireName() + "), so the "
                    + "preview_hash cannot be checked; nothing was sent");
        }
        if (now.isEmpty() || !hash(r, now.get()).equals(req.previewHash().get())) {
            return Optional.of("the preview_hash does not match a preview of this request now; preview again and "
                    + "pass the new hash");
        }
        return Optional.empty();
    }

    /** One HTTP request or one remote command: the shapes whose exact effect a preview can show. */
    static boolean previewable(ResolvedCall r) {
        return previewable(r.op().descriptor().shape());
    }

    static boolean previewable(OperationShape shape) {
        return shape instanceof OperationShape.Http || shape instanceof OperationShape.Command;
    }

    /**
     * The connector's preview of the call, empty when it offers none for the operation. Computing it sends nothing.
     *
     * @throws ConnectorException when the preview failed (the plugin threw, timed out, or its session did not open),
     *                            which callers report as a failure, never as "no preview"
     */
    Optional<HttpPreview> previewOf(ResolvedCall r) {
        Credential none = new Credential(Map.of());
        return sessions.call(r.op().connector(), r.target().spec(), credentialOrEmpty(r, none),
                c -> c.preview(r.request()));
    }

    private Credential credentialOrEmpty(ResolvedCall r, Credential none) {
        try {
            return credentials.resolve(Optional.of(r.entry().tenantId()), r.target().secretRef());
        } catch (ConnectorException e) {
            return none;
        }
    }

    static String hash(ResolvedCall r, HttpPreview p) {
        return previewHash(r.op().connector().connectorId(), r.request().opId(), r.target().id(), p);
    }

    /** The hash of a preview: the connector, operation and target with the request, canonical (sorted) JSON. */
    static String previewHash(String connectorId, String opId, UUID targetId, HttpPreview p) {
        Map<String, Object> canonical = new TreeMap<>();
        canonical.put("connector_id", connectorId);
        canonical.put("op_id", opId);
        canonical.put("target_id", targetId.toString());
        canonical.put("method", p.method());
        canonical.put("path", p.path());
        canonical.put("query", new TreeMap<>(p.query()));
        canonical.put("body", p.body().orElse(null));
        return "sha256:" + Digests.sha256Hex(JsonMapping.write(canonical));
    }
}
