package dev.backplane.kernel.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalKind;
import dev.backplane.kernel.identity.Role;
import dev.backplane.plugin.api.OpClass;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The audit row's named factories: who a row names, and what a composite's step row inherits from its parent. */
class AuditEntryTest {

    private static final UUID TENANT = UUID.randomUUID();
    private static final UUID SESSION = UUID.randomUUID();

    private static Caller agentInSession() {
        return new Caller("agent-7", Optional.empty(), Optional.of(TENANT), TENANT, Role.OPERATOR, false,
                PrincipalKind.AGENT, Optional.of("svc-agents"), Optional.of(SESSION));
    }

    @Test
    void aCallersRowNamesItsTenantSubjectKindAndAgentSession() {
        AuditLog.Entry e = AuditLog.Entry.by(agentInSession(), AuditClass.OTHER, "svc.approval.approve");

        assertThat(e.tenantId()).isEqualTo(TENANT);
        assertThat(e.principal()).isEqualTo("agent-7");
        assertThat(e.principalKind()).isEqualTo("agent");
        assertThat(e.opClass()).isEqualTo("other");
        assertThat(e.opId()).isEqualTo("svc.approval.approve");
        // the Caller's contract: every audit row a caller in an agent session causes carries the session
        assertThat(e.sessionId()).contains(SESSION);
        assertThat(e.connectorId()).isEmpty();
        assertThat(e.target()).isEmpty();
        assertThat(e.paramsHash()).isEmpty();
    }

    @Test
    void theKernelsOwnWorkIsAServicePrincipalsRow() {
        AuditLog.Entry e = AuditLog.Entry.byService(TENANT, "svc-reaper", AuditClass.OTHER, "svc.runs.orphaned")
                .connector(Optional.of("k8s-1.x")).target(Optional.empty()).workRef(Optional.of("CHG-1"));

        assertThat(e.principalKind()).isEqualTo("service");
        assertThat(e.principal()).isEqualTo("svc-reaper");
        assertThat(e.connectorId()).contains("k8s-1.x");
        assertThat(e.target()).isEmpty();
        assertThat(e.workRef()).contains("CHG-1");
        assertThat(e.sessionId()).isEmpty();
    }

    @Test
    void aCompositeStepKeepsItsParentsPrincipalTargetAndSessionButNotItsParamsHash() {
        UUID targetId = UUID.randomUUID();
        UUID parentRow = UUID.randomUUID();
        AuditLog.Entry parent = AuditLog.Entry.by(agentInSession(), AuditClass.of(OpClass.WRITE), "argocd.sync")
                .connector("argocd-2.x").target("prod", targetId).workRef(Optional.of("CHG-9")).paramsHash("ab12");

        AuditLog.Entry step = parent.childStep(parentRow, AuditClass.READ, "argocd.app.get");

        assertThat(step.opClass()).isEqualTo("read");
        assertThat(step.opId()).isEqualTo("argocd.app.get");
        assertThat(step.parentAuditId()).contains(parentRow);
        assertThat(step.paramsHash()).isEmpty();
        assertThat(step).usingRecursiveComparison()
                .ignoringFields("opClass", "opId", "parentAuditId", "paramsHash").isEqualTo(parent);
        assertThat(parent.parentAuditId()).isEmpty(); // withers copy, never change the original
        assertThat(parent.paramsHash()).contains("ab12");
    }

    @Test
    void everyOperationClassHasTheAuditClassOfTheSameWireName() {
        for (OpClass c : OpClass.values()) {
            assertThat(AuditClass.of(c).wireName()).isEqualTo(c.wireName());
        }
        // the audit query's op_class filter: the operation classes and the audit log's own reads, nothing else
        assertThat(AuditClass.WIRE_NAMES).containsExactlyInAnyOrder("read", "write", "credential_read", "other",
                "audit_query");
        assertThat(AuditQueries.OP_CLASSES).isEqualTo(AuditClass.WIRE_NAMES);
    }
}
