package dev.backplane.kernel.governance;

import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalDirectory;
import dev.backplane.kernel.identity.PrincipalKind;
import dev.backplane.plugin.api.SafetyLevel;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

/**
 * The policy gate (ARCHITECTURE §6): given who calls which operation on which target, answer
 * {@link Allow}, {@link Deny} or {@link Park}. Every caller of the dispatch pipeline — REST, MCP, the
 * CLI's family verbs, an approval's release, and later agent runs, sensors and runbook steps — gets
 * its answer here and nowhere else.
 *
 * <p>The order is fixed: default-deny review state, then the principal's bounds (an agent's or
 * user-agent's grants and safety-level fallback, a service principal's exact grants), then the preview
 * proof a dangerous operation needs, then parking (the operation requires approval, or a grant says
 * needs-approval).
 */
public final class PolicyGate {

    /** The gate's answer. */
    public sealed interface Decision permits Allow, Deny, Park {
    }

    /** Go on to credentials and the plugin call. */
    public record Allow() implements Decision {
    }

    /**
     * Refused. {@code message} is the envelope's error text; {@code reason}, when present, is shown as
     * {@code extras.reason} and kept on the audit row.
     */
    public record Deny(DenyCode code, String message, Optional<String> reason) implements Decision {
    }

    /** Needs a second person: an approval request is created and the call waits for it. */
    public record Park(String reason) implements Decision {
    }

    /** Why a call was refused (SPEC's error codes). */
    public enum DenyCode {
        OPERATION_NOT_ENABLED, DENIED_BY_GRANT, DENIED_BY_SAFETY_LEVEL, NO_SERVICE_GRANT, PREVIEW_HASH_REQUIRED,
        PRINCIPAL_REVOKED;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** What the gate is told of the operation: its review state and safety as they are for this tenant. */
    public record Operation(String connectorId, String opId, SafetyLevel safety, boolean requiresApproval,
                            boolean enabled) {
    }

    /** What the gate is told of the target. */
    public record TargetRef(UUID id, String name, String product) {
    }

    /**
     * Whether a dangerous call carries a preview hash that matches a preview of the same request now;
     * asked only when the operation is dangerous and the principal's bounds allow it (computing it
     * previews the request through the plugin).
     */
    @FunctionalInterface
    public interface PreviewProof {
        /** Empty when the proof holds, else why not. */
        Optional<String> refusal();
    }

    /** An agent's or user-agent's grants, most specific first (implemented by {@link Grants}). */
    @FunctionalInterface
    public interface AgentGrants {
        Grants.Decision decide(UUID tenant, java.util.List<String> principals, String kind, String opId, UUID targetId,
                               SafetyLevel safety);
    }

    /** Whether a service principal holds an exact grant for the call (implemented by {@link ServiceGrants}). */
    @FunctionalInterface
    public interface ServiceGrantLookup {
        boolean covers(UUID tenant, String principal, String connectorId, String opId, TargetRef target);
    }

    private final AgentGrants grants;
    private final ServiceGrantLookup serviceGrants;
    private final PrincipalDirectory principals;

    public PolicyGate(AgentGrants grants, ServiceGrantLookup serviceGrants, PrincipalDirectory principals) {
        this.grants = grants;
        this.serviceGrants = serviceGrants;
        this.principals = principals;
    }

    /** The gate for a new call. */
    public Decision decide(Caller caller, Operation op, TargetRef target, PreviewProof preview) {
        if (!op.enabled()) {
            String reason = "operation " + op.opId() + " is not enabled for this tenant (default-deny); a tenant_admin "
                    + "reviews it with: svc connector review " + op.connectorId();
            return new Deny(DenyCode.OPERATION_NOT_ENABLED, reason, Optional.of(reason));
        }
        boolean grantSaysApproval = false;
        switch (caller.kind()) {
            case AGENT, USER_AGENT -> {
                Grants.Decision d = grants.decide(caller.tenantId(), caller.grantSubjects(), caller.kind().wireName(),
                        op.opId(), target.id(), op.safety());
                if (d.verdict() == Grants.Verdict.DENY) {
                    DenyCode code = d.grantId().isPresent() ? DenyCode.DENIED_BY_GRANT : DenyCode.DENIED_BY_SAFETY_LEVEL;
                    return new Deny(code, "denied: " + d.reason(), Optional.of(d.reason()));
                }
                grantSaysApproval = d.verdict() == Grants.Verdict.NEEDS_APPROVAL;
            }
            case SERVICE -> {
                if (!serviceGrants.covers(caller.tenantId(), caller.sub(), op.connectorId(), op.opId(), target)) {
                    String reason = "no service-principal grant covers " + op.connectorId() + " " + op.opId() + " on "
                            + target.name() + " for " + caller.sub();
                    return new Deny(DenyCode.NO_SERVICE_GRANT, reason, Optional.of(reason));
                }
            }
            case HUMAN -> {
            }
        }
        if (op.safety() == SafetyLevel.DANGEROUS) {
            Optional<String> refusal = preview.refusal();
            if (refusal.isPresent()) {
                return new Deny(DenyCode.PREVIEW_HASH_REQUIRED, refusal.get(), refusal);
            }
        }
        if (op.requiresApproval()) {
            return new Park("operation " + op.opId() + " requires approval");
        }
        if (grantSaysApproval) {
            return new Park("a grant or the safety-level fallback says needs-approval");
        }
        return new Allow();
    }

    /**
     * The gate again as an approved call is released: the review state, the kill switch, and the agent's or
     * service principal's grants as they are now (a grant's needs-approval is what the approval satisfied; it
     * does not park again).
     */
    public Decision recheckReleased(Caller requester, Operation op, TargetRef target) {
        if (!op.enabled()) {
            return new Deny(DenyCode.OPERATION_NOT_ENABLED, "operation " + op.opId() + " was disabled after the call "
                    + "was parked", Optional.empty());
        }
        if (requester.kind() == PrincipalKind.AGENT
                && requester.clientId().flatMap(id -> principals.agentRevoked(requester.tenantId(), id)).orElse(false)) {
            return new Deny(DenyCode.PRINCIPAL_REVOKED, "agent principal " + requester.clientId().get()
                    + " was revoked after the call was parked (kill switch)", Optional.empty());
        }
        if (requester.kind() == PrincipalKind.AGENT || requester.kind() == PrincipalKind.USER_AGENT) {
            Grants.Decision d = grants.decide(requester.tenantId(), requester.grantSubjects(), requester.kind().wireName(),
                    op.opId(), target.id(), op.safety());
            if (d.verdict() == Grants.Verdict.DENY) {
                return new Deny(DenyCode.DENIED_BY_GRANT, "denied since the call was parked: " + d.reason(),
                        Optional.of(d.reason()));
            }
        }
        if (requester.kind() == PrincipalKind.SERVICE
                && !serviceGrants.covers(requester.tenantId(), requester.sub(), op.connectorId(), op.opId(), target)) {
            // review 3, S16: a service grant revoked or expired while the call waited no longer covers it
            String reason = "no service-principal grant covers " + op.connectorId() + " " + op.opId() + " on "
                    + target.name() + " for " + requester.sub() + " any more (revoked or expired since the call was parked)";
            return new Deny(DenyCode.NO_SERVICE_GRANT, reason, Optional.of(reason));
        }
        return new Allow();
    }
}
