package dev.backplane.kernel.dispatch;

import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.plugins.KernelConnectorContext;
import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.CompositeStep;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.OperationDescriptor;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The audit rows of a composite operation's child requests (SPEC: parent_audit_id is the composite-op
 * parent). Only the composite passes the policy gate; each child request it sends still gets a row of its
 * own, begun before the request leaves (fail-closed, like the parent's) and finished with its outcome. A
 * child row copies the parent's principal, target, session and work_ref, names its own op id and op_class
 * (from the connector's catalog, so a plugin cannot pass a write off as a read), and holds no params hash:
 * the parent's row hashes the params the caller gave.
 */
final class CompositeAudit implements KernelConnectorContext.StepAudit {

    private final AuditLog audit;
    private final AuditLog.Entry parent;
    private final UUID parentId;
    private final Catalog catalog;

    CompositeAudit(AuditLog audit, AuditLog.Entry parent, UUID parentId, Catalog catalog) {
        this.audit = audit;
        this.parent = parent;
        this.parentId = parentId;
        this.catalog = catalog;
    }

    @Override
    public CompositeStep begin(String childOpId) {
        OperationDescriptor child = catalog.operations().stream().filter(op -> op.opId().equals(childOpId)).findFirst()
                .orElseThrow(() -> new ConnectorException(ErrorCode.UNKNOWN_OPERATION, "composite step "
                        + childOpId + " is not an operation of connector " + parent.connectorId().orElse("?")));
        AuditLog.Entry row = parent.childStep(parentId, AuditClass.of(child.opClass()), child.opId());
        UUID id;
        try {
            id = audit.begin(row);
        } catch (DomainException unavailable) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "the audit row of composite step " + childOpId
                    + " could not be written, so the step was not sent (audit is fail-closed)",
                    Map.of("cause", unavailable.code()), null);
        }
        return new Step(id, System.nanoTime());
    }

    /** One child row, finished exactly once. */
    private final class Step implements CompositeStep {
        private final UUID id;
        private final long t0;
        private final AtomicBoolean finished = new AtomicBoolean();

        Step(UUID id, long t0) {
            this.id = id;
            this.t0 = t0;
        }

        @Override
        public void succeeded() {
            finish("ok", Optional.empty());
        }

        @Override
        public void failed(ErrorCode code) {
            finish("error", Optional.of(code == null ? ErrorCode.CONNECTOR_ERROR.wireName() : code.wireName()));
        }

        @Override
        public void close() {
            finish("error", Optional.of(ErrorCode.CONNECTOR_ERROR.wireName()));
        }

        private void finish(String status, Optional<String> code) {
            if (finished.compareAndSet(false, true)) {
                audit.finish(id, status, code, (System.nanoTime() - t0) / 1_000_000);
            }
        }
    }
}
