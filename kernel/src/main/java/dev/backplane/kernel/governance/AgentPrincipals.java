package dev.backplane.kernel.governance;

import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalDirectory;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.identity.Subjects;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.SharedCache;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Registered agent principals. An agent authenticates with its own OIDC client whose client id is
 * the principal's name; its tokens are then of kind {@code agent} and bounded by grants. Revoking a
 * principal is the kill switch: checked on every request, so the next call is refused.
 */
public final class AgentPrincipals implements PrincipalDirectory {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    /**
     * An agent principal as shown. Its runs act under the subject {@code svc-agent:<name>}; its own tokens
     * under their sub. {@code registeredBy} is who registered it, whoever they named as {@code ownerSub}.
     */
    public record AgentPrincipal(String name, String ownerSub, String registeredBy, boolean revoked, Instant createdAt,
                                 Optional<Instant> revokedAt, Optional<String> revokedBy) {
    }

    private final AgentPrincipalStore store;
    private final SharedCache<Boolean> registered;
    private final AuditLog audit;
    /** Told of each parked call the kill switch withdraws, in the revocation's transaction (set once, at wiring). */
    private volatile ApprovalEvents approvalEvents = ApprovalEvents.NONE;

    public AgentPrincipals(Jdbc jdbc, ChangeFeed feed) {
        this.store = new AgentPrincipalStore(jdbc);
        this.audit = new AuditLog(jdbc);
        this.registered = new SharedCache<>(feed, "agent-principals", 10_000);
    }

    /**
     * Asked on every authenticated request. That a client id is <em>not</em> a registered agent is
     * cached (dropped on register, on every replica through the change feed); for a registered agent
     * the revoked flag is read from the database on every call, so the kill switch holds from the
     * very next call on every replica, not only on the one that pulled it.
     */
    @Override
    public Optional<Boolean> agentRevoked(UUID tenant, String clientId) {
        if (registered.get(tenant + "/" + clientId, () -> store.revoked(tenant, clientId).isPresent())) {
            return store.revoked(tenant, clientId);
        }
        return Optional.empty();
    }

    public AgentPrincipal register(Caller caller, String name, Optional<String> ownerSub) {
        caller.requireHuman("registering an agent principal");
        if (name == null || !NAME.matcher(name).matches()) {
            throw GovernanceErrors.INVALID_NAME.error("name must be the agent's OIDC client id: 1-128 letters, "
                    + "digits, '.', '_' or '-'", Map.of("field", "name"));
        }
        if (ownerSub.isPresent() && (ownerSub.get().isBlank() || ownerSub.get().length() > Grants.MAX_PRINCIPAL
                || Subjects.reserved(ownerSub.get()))) {
            throw GovernanceErrors.INVALID_NAME.error("owner_sub must be a person's token subject (1-"
                    + Grants.MAX_PRINCIPAL + " characters, not svc-<kind>:...)", Map.of("field", "owner_sub"));
        }
        boolean inserted = store.insert(caller.tenantId(), name, ownerSub.orElse(caller.sub()), caller.sub());
        registered.changed(caller.tenantId() + "/" + name);
        if (!inserted) {
            throw GovernanceErrors.PRINCIPAL_EXISTS.error("agent principal '" + name
                    + "' is already registered");
        }
        AgentPrincipal p = show(caller.tenantId(), name);
        audit.record(entry(caller, "register", name), "ok", Optional.empty(), Optional.empty(),
                Map.of("name", name, "owner_sub", p.ownerSub(), "registered_by", p.registeredBy()));
        return p;
    }

    /** The audit row of a principal's registration or revocation (no agent session: a person's action). */
    private static AuditLog.Entry entry(Caller caller, String verb, String name) {
        return AuditLog.Entry.of(caller.tenantId(), caller.sub(), caller.kind(), AuditClass.OTHER,
                "svc.agent_principals." + verb).target(name);
    }

    public List<AgentPrincipal> list(UUID tenant, boolean includeRevoked) {
        return store.list(tenant, includeRevoked);
    }

    public AgentPrincipal show(UUID tenant, String name) {
        return store.find(tenant, name).orElseThrow(() -> GovernanceErrors.PRINCIPAL_NOT_FOUND.error(
                "no agent principal '" + name + "' in this tenant"));
    }

    /**
     * What is told of the parked calls the kill switch withdraws (the notification outbox). Set at wiring: the
     * principals exist before the approvals and their notifications, since every request's authentication asks them.
     */
    public void onApprovalEvents(ApprovalEvents events) {
        this.approvalEvents = events;
    }

    /** The kill switch: a tenant_admin or the principal's owner may pull it. */
    public AgentPrincipal revoke(Caller caller, String name) {
        AgentPrincipal p = show(caller.tenantId(), name);
        if (!caller.effectiveRole().includes(Role.TENANT_ADMIN) && !caller.sub().equals(p.ownerSub())) {
            throw CommonErrors.INSUFFICIENT_ROLE.error("only a tenant_admin or the principal's owner may revoke it")
                    .withExtras("required_role", "tenant_admin");
        }
        // one transaction: the principal revoked, every call it parked withdrawn, and the audit row
        store.inTransaction(c -> {
            boolean changed = AgentPrincipalStore.revoke(c, caller.tenantId(), name, caller.sub());
            List<UUID> rejected = ApprovalStore.rejectPendingOf(c, caller.tenantId(), name, caller.sub());
            for (UUID id : rejected) {
                approvalEvents.recorded(c, caller.tenantId(), ApprovalStore.byId(c, id), ApprovalEvents.WITHDRAWN);
            }
            int withdrawn = rejected.size();
            if (changed || withdrawn > 0) {
                audit.recordIn(c, entry(caller, "revoke", name), "ok", Optional.empty(),
                        Map.of("name", name, "pending_approvals_withdrawn", withdrawn));
            }
            return null;
        });
        return show(caller.tenantId(), name);
    }
}
