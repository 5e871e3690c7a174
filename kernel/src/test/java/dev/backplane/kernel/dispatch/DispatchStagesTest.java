package dev.backplane.kernel.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalKind;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.targets.Target;
import dev.backplane.kernel.util.Digests;
import dev.backplane.plugin.api.HttpPreview;
import dev.backplane.plugin.api.OperationShape;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The pipeline's stage rules that need no database: the audit entry a call starts from, the preview hash a dangerous
 * call is checked against, which shapes can be previewed, and the principal kind a released call runs as.
 */
class DispatchStagesTest {

    private static final UUID TENANT = UUID.randomUUID();
    private static final UUID SESSION = UUID.randomUUID();
    private static final Target TARGET = new Target(UUID.randomUUID(), "lab1", List.of("l1"), "proxmox", "10.1.0.1",
            8006, false, Optional.empty(), "tenants/x/lab1", "shared_service_account", false, Optional.empty(),
            Optional.empty(), true, Optional.empty(), Optional.empty(), Map.of(), Optional.empty(), Optional.empty(),
            Instant.EPOCH, Instant.EPOCH);

    private static Caller agent() {
        return new Caller("agent-7", Optional.empty(), Optional.of(TENANT), TENANT, Role.OPERATOR, false,
                PrincipalKind.AGENT, Optional.of("client-7"), Optional.of(SESSION));
    }

    private static CallRequest call(Map<String, Object> params) {
        return new CallRequest("proxmox-8", "vm.list", "l1", params, Optional.of("CHG-1"), Optional.empty(),
                Optional.empty());
    }

    @Test
    void theAuditEntryNamesCallerResolvedConnectorTargetAndParamsHash() {
        AuditLog.Entry e = CallResolver.auditEntry(agent(), AuditClass.WRITE, "proxmox-9", TARGET,
                call(Map.of("node", "pve1")));

        assertThat(e.tenantId()).isEqualTo(TENANT);
        assertThat(e.principal()).isEqualTo("agent-7");
        assertThat(e.principalKind()).isEqualTo("agent");
        assertThat(e.opClass()).isEqualTo("write");
        assertThat(e.opId()).isEqualTo("vm.list");
        assertThat(e.connectorId()).contains("proxmox-9"); // the resolved connector, not the one named
        assertThat(e.target()).contains("lab1"); // the target's name, not the alias called
        assertThat(e.targetId()).contains(TARGET.id());
        assertThat(e.sessionId()).contains(SESSION);
        assertThat(e.workRef()).contains("CHG-1");
        assertThat(e.parentAuditId()).isEmpty();
        assertThat(e.paramsHash()).contains(Digests.sha256Hex("{\"node\":\"pve1\"}"));
    }

    @Test
    void theParamsHashIgnoresKeyOrderButNotValues() {
        Map<String, Object> ab = new LinkedHashMap<>();
        ab.put("a", 1);
        ab.put("b", "x");
        Map<String, Object> ba = new LinkedHashMap<>();
        ba.put("b", "x");
        ba.put("a", 1);

        String hash = CallResolver.auditEntry(agent(), AuditClass.READ, "c", TARGET, call(ab)).paramsHash().orElseThrow();
        assertThat(CallResolver.auditEntry(agent(), AuditClass.READ, "c", TARGET, call(ba)).paramsHash()).contains(hash);
        assertThat(CallResolver.auditEntry(agent(), AuditClass.READ, "c", TARGET, call(Map.of("a", 2, "b", "x")))
                .paramsHash()).isNotEqualTo(Optional.of(hash));
    }

    @Test
    void thePreviewHashIsCanonicalAndBindsConnectorOperationTargetAndRequest() {
        UUID target = UUID.randomUUID();
        Map<String, List<String>> q1 = new LinkedHashMap<>();
        q1.put("x", List.of("1"));
        q1.put("y", List.of("2"));
        Map<String, List<String>> q2 = new LinkedHashMap<>();
        q2.put("y", List.of("2"));
        q2.put("x", List.of("1"));
        HttpPreview p = new HttpPreview("POST", "/nodes/pve1/qemu", q1, Optional.of(Map.of("vmid", 100)));
        String hash = CallResolver.previewHash("proxmox-8", "vm.create", target, p);

        assertThat(hash).startsWith("sha256:").hasSize("sha256:".length() + 64);
        assertThat(CallResolver.previewHash("proxmox-8", "vm.create", target,
                new HttpPreview("POST", "/nodes/pve1/qemu", q2, Optional.of(Map.of("vmid", 100))))).isEqualTo(hash);
        assertThat(CallResolver.previewHash("proxmox-9", "vm.create", target, p)).isNotEqualTo(hash);
        assertThat(CallResolver.previewHash("proxmox-8", "vm.delete", target, p)).isNotEqualTo(hash);
        assertThat(CallResolver.previewHash("proxmox-8", "vm.create", UUID.randomUUID(), p)).isNotEqualTo(hash);
        assertThat(CallResolver.previewHash("proxmox-8", "vm.create", target,
                new HttpPreview("POST", "/nodes/pve1/qemu", q1, Optional.of(Map.of("vmid", 101))))).isNotEqualTo(hash);
        assertThat(CallResolver.previewHash("proxmox-8", "vm.create", target,
                new HttpPreview("PUT", "/nodes/pve1/qemu", q1, Optional.of(Map.of("vmid", 100))))).isNotEqualTo(hash);
    }

    @Test
    void onlyOneRequestOrOneCommandCanBePreviewed() {
        assertThat(CallResolver.previewable(new OperationShape.Http("GET", "/nodes"))).isTrue();
        assertThat(CallResolver.previewable(new OperationShape.Command("uptime"))).isTrue();
        assertThat(CallResolver.previewable(new OperationShape.Composite())).isFalse();
    }

    @Test
    void aReleasedCallRunsAsTheKindItWasParkedAs() {
        for (PrincipalKind k : PrincipalKind.values()) {
            assertThat(ApprovalPath.kindOf(k.wireName())).isEqualTo(k);
        }
        assertThat(ApprovalPath.kindOf("user-agent")).isEqualTo(PrincipalKind.USER_AGENT);
        assertThat(ApprovalPath.kindOf("robot")).isEqualTo(PrincipalKind.HUMAN);
    }
}
