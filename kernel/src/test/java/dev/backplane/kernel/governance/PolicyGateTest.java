package dev.backplane.kernel.governance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.governance.PolicyGate.Allow;
import dev.backplane.kernel.governance.PolicyGate.Deny;
import dev.backplane.kernel.governance.PolicyGate.DenyCode;
import dev.backplane.kernel.governance.PolicyGate.Operation;
import dev.backplane.kernel.governance.PolicyGate.Park;
import dev.backplane.kernel.governance.PolicyGate.TargetRef;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalKind;
import dev.backplane.kernel.identity.Role;
import dev.backplane.plugin.api.SafetyLevel;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The gate's decisions, without a kernel: grants, service grants and revocation are given as functions. */
class PolicyGateTest {

    private static final UUID TENANT = UUID.randomUUID();
    private static final TargetRef TARGET = new TargetRef(UUID.randomUUID(), "prod-1", "demo");
    private static final PolicyGate.PreviewProof PROVEN = Optional::empty;

    private final AtomicInteger previews = new AtomicInteger();

    private static Caller caller(PrincipalKind kind) {
        return new Caller("sub-" + kind, Optional.empty(), Optional.of(TENANT), TENANT, Role.OPERATOR, false, kind,
                Optional.of("client-1"));
    }

    private static Operation op(SafetyLevel safety, boolean requiresApproval, boolean enabled) {
        return new Operation("demo-1.0", "items.delete", safety, requiresApproval, enabled);
    }

    private static PolicyGate gate(Grants.Verdict grant, boolean serviceCovered, boolean revoked) {
        return new PolicyGate(
                (tenant, principal, kind, opId, target, safety) -> grant == null
                        ? new Grants.Decision(switch (safety) {
                            case SAFE -> Grants.Verdict.AUTO_EXECUTE;
                            case CAUTION -> Grants.Verdict.NEEDS_APPROVAL;
                            case DANGEROUS -> Grants.Verdict.DENY;
                        }, "fallback", Optional.empty())
                        : new Grants.Decision(grant, "grant g1", Optional.of(UUID.randomUUID())),
                (tenant, principal, connectorId, opId, target) -> serviceCovered,
                (tenant, clientId) -> Optional.of(revoked));
    }

    private PolicyGate.PreviewProof counted(Optional<String> refusal) {
        return () -> {
            previews.incrementAndGet();
            return refusal;
        };
    }

    @Test
    void anOperationNotEnabledIsDeniedForEveryoneBeforeAnythingElse() {
        for (PrincipalKind kind : PrincipalKind.values()) {
            var d = gate(Grants.Verdict.AUTO_EXECUTE, true, false).decide(caller(kind), op(SafetyLevel.SAFE, false, false),
                    TARGET, counted(Optional.empty()));
            assertThat(d).isInstanceOfSatisfying(Deny.class, deny -> {
                assertThat(deny.code()).isEqualTo(DenyCode.OPERATION_NOT_ENABLED);
                assertThat(deny.message()).contains("svc connector review demo-1.0");
            });
        }
        assertThat(previews).hasValue(0);
    }

    @Test
    void aHumanIsAllowedASafeEnabledOperationAndParkedWhenItRequiresApproval() {
        PolicyGate g = gate(null, false, false);
        assertThat(g.decide(caller(PrincipalKind.HUMAN), op(SafetyLevel.CAUTION, false, true), TARGET, PROVEN))
                .isInstanceOf(Allow.class);
        assertThat(g.decide(caller(PrincipalKind.HUMAN), op(SafetyLevel.SAFE, true, true), TARGET, PROVEN))
                .isInstanceOf(Park.class);
    }

    @Test
    void anAgentFallsBackToItsSafetyLevelWithoutAGrant() {
        PolicyGate g = gate(null, false, false);
        Caller agent = caller(PrincipalKind.AGENT);
        assertThat(g.decide(agent, op(SafetyLevel.SAFE, false, true), TARGET, PROVEN)).isInstanceOf(Allow.class);
        assertThat(g.decide(agent, op(SafetyLevel.CAUTION, false, true), TARGET, PROVEN)).isInstanceOf(Park.class);
        assertThat(g.decide(agent, op(SafetyLevel.DANGEROUS, false, true), TARGET, counted(Optional.empty())))
                .isInstanceOfSatisfying(Deny.class, d -> assertThat(d.code()).isEqualTo(DenyCode.DENIED_BY_SAFETY_LEVEL));
        assertThat(previews).as("a denied call is never previewed").hasValue(0);
    }

    @Test
    void aDenyingGrantBeatsEverythingAndNamesTheGrant() {
        var d = gate(Grants.Verdict.DENY, false, false).decide(caller(PrincipalKind.USER_AGENT),
                op(SafetyLevel.SAFE, false, true), TARGET, PROVEN);
        assertThat(d).isInstanceOfSatisfying(Deny.class, deny -> {
            assertThat(deny.code()).isEqualTo(DenyCode.DENIED_BY_GRANT);
            assertThat(deny.reason()).hasValue("grant g1");
        });
    }

    @Test
    void aGrantSayingNeedsApprovalParksEvenASafeOperation() {
        assertThat(gate(Grants.Verdict.NEEDS_APPROVAL, false, false).decide(caller(PrincipalKind.AGENT),
                op(SafetyLevel.SAFE, false, true), TARGET, PROVEN)).isInstanceOf(Park.class);
    }

    @Test
    void aServicePrincipalNeedsAnExactGrant() {
        Caller svc = caller(PrincipalKind.SERVICE);
        assertThat(gate(null, false, false).decide(svc, op(SafetyLevel.SAFE, false, true), TARGET, PROVEN))
                .isInstanceOfSatisfying(Deny.class, d -> {
                    assertThat(d.code()).isEqualTo(DenyCode.NO_SERVICE_GRANT);
                    assertThat(d.message()).contains("items.delete").contains("prod-1").contains("sub-SERVICE");
                });
        assertThat(gate(null, true, false).decide(svc, op(SafetyLevel.SAFE, false, true), TARGET, PROVEN))
                .isInstanceOf(Allow.class);
    }

    @Test
    void aDangerousOperationNeedsItsPreviewProofBeforeItCanRunOrPark() {
        PolicyGate g = gate(null, false, false);
        Caller human = caller(PrincipalKind.HUMAN);
        assertThat(g.decide(human, op(SafetyLevel.DANGEROUS, true, true), TARGET, counted(Optional.of("preview first"))))
                .isInstanceOfSatisfying(Deny.class, d -> {
                    assertThat(d.code()).isEqualTo(DenyCode.PREVIEW_HASH_REQUIRED);
                    assertThat(d.message()).isEqualTo("preview first");
                    assertThat(d.code().wireName()).isEqualTo("preview_hash_required");
                });
        assertThat(g.decide(human, op(SafetyLevel.DANGEROUS, true, true), TARGET, counted(Optional.empty())))
                .isInstanceOf(Park.class);
        assertThat(g.decide(human, op(SafetyLevel.DANGEROUS, false, true), TARGET, counted(Optional.empty())))
                .isInstanceOf(Allow.class);
        assertThat(previews).hasValue(3);
    }

    @Test
    void aReleasedCallIsCheckedAgainstTheKillSwitchAndTheGrantsAsTheyAreNow() {
        Operation safe = op(SafetyLevel.SAFE, true, true);
        assertThat(gate(Grants.Verdict.NEEDS_APPROVAL, false, false).recheckReleased(caller(PrincipalKind.AGENT), safe,
                TARGET)).as("the approval satisfied needs-approval").isInstanceOf(Allow.class);
        assertThat(gate(Grants.Verdict.AUTO_EXECUTE, false, true).recheckReleased(caller(PrincipalKind.AGENT), safe,
                TARGET)).isInstanceOfSatisfying(Deny.class, d -> assertThat(d.code()).isEqualTo(DenyCode.PRINCIPAL_REVOKED));
        assertThat(gate(Grants.Verdict.DENY, false, false).recheckReleased(caller(PrincipalKind.USER_AGENT), safe,
                TARGET)).isInstanceOfSatisfying(Deny.class, d -> {
                    assertThat(d.code()).isEqualTo(DenyCode.DENIED_BY_GRANT);
                    assertThat(d.message()).startsWith("denied since the call was parked");
                });
        assertThat(gate(null, false, true).recheckReleased(caller(PrincipalKind.HUMAN), op(SafetyLevel.SAFE, true, false),
                TARGET)).isInstanceOfSatisfying(Deny.class, d -> assertThat(d.code()).isEqualTo(DenyCode.OPERATION_NOT_ENABLED));
        assertThat(gate(null, false, true).recheckReleased(caller(PrincipalKind.HUMAN), safe, TARGET))
                .as("revocation is about agents").isInstanceOf(Allow.class);
    }

    /** Review 3, S16: a service principal's parked call runs only while a service grant still covers it. */
    @Test
    void aReleasedServiceCallIsCheckedAgainstItsServiceGrantsAsTheyAreNow() {
        Operation safe = op(SafetyLevel.SAFE, true, true);
        Caller service = caller(PrincipalKind.SERVICE);
        assertThat(gate(null, true, false).recheckReleased(service, safe, TARGET)).isInstanceOf(Allow.class);
        assertThat(gate(null, false, false).recheckReleased(service, safe, TARGET))
                .isInstanceOfSatisfying(Deny.class, d -> {
                    assertThat(d.code()).isEqualTo(DenyCode.NO_SERVICE_GRANT);
                    assertThat(d.message()).contains("since the call was parked");
                });
    }

    /** Review 3, S1: an agent principal's grants are asked for its token's sub and for svc-agent:<name>. */
    @Test
    void anAgentPrincipalsGrantsAreAskedUnderItsTokenSubAndItsRunSubject() {
        java.util.List<java.util.List<String>> asked = new java.util.ArrayList<>();
        PolicyGate g = new PolicyGate((tenant, principals, kind, opId, target, safety) -> {
            asked.add(principals);
            return new Grants.Decision(Grants.Verdict.AUTO_EXECUTE, "grant", Optional.of(UUID.randomUUID()));
        }, (tenant, principal, connectorId, opId, target) -> false, (tenant, clientId) -> Optional.of(false));
        Caller token = new Caller("3f1c-uuid", Optional.empty(), Optional.of(TENANT), TENANT, Role.OPERATOR, false,
                PrincipalKind.AGENT, Optional.of("triage-bot"));
        Caller run = new Caller("svc-agent:triage-bot", Optional.empty(), Optional.of(TENANT), TENANT, Role.OPERATOR, false,
                PrincipalKind.AGENT, Optional.of("triage-bot"));
        Caller userAgent = new Caller("user-1", Optional.empty(), Optional.of(TENANT), TENANT, Role.OPERATOR, false,
                PrincipalKind.USER_AGENT, Optional.of("svc-mcp"));
        for (Caller c : java.util.List.of(token, run, userAgent)) {
            assertThat(g.decide(c, op(SafetyLevel.SAFE, false, true), TARGET, PROVEN)).isInstanceOf(Allow.class);
        }
        assertThat(asked).containsExactly(java.util.List.of("3f1c-uuid", "svc-agent:triage-bot"),
                java.util.List.of("svc-agent:triage-bot"), java.util.List.of("user-1"));
    }
}
