package dev.backplane.kernel.identity;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.backplane.kernel.errors.CommonErrors;
import java.util.Optional;
import java.util.UUID;

/**
 * The authenticated caller of a request.
 *
 * @param sub the token subject
 * @param username a display name (preferred_username), when the token carries one
 * @param homeTenantId the tenant named by the token's {@code tenant_id} claim (absent only for a platform_admin without one)
 * @param tenantId the tenant this request acts on: the home tenant, or another one a platform_admin chose
 * @param role the tenant role from {@code tenant_role}
 * @param platformAdmin whether the token carries {@code platform_admin: true}
 * @param kind which kind of principal this is
 * @param clientId the OIDC client the token was issued to (azp)
 * @param sessionId the agent session (run) this caller acts in; every audit row it causes carries it
 */
public record Caller(String sub, Optional<String> username, Optional<UUID> homeTenantId, UUID tenantId, Role role,
                     boolean platformAdmin, PrincipalKind kind, Optional<String> clientId, Optional<UUID> sessionId) {

    /** A caller outside any agent session. */
    public Caller(String sub, Optional<String> username, Optional<UUID> homeTenantId, UUID tenantId, Role role,
                  boolean platformAdmin, PrincipalKind kind, Optional<String> clientId) {
        this(sub, username, homeTenantId, tenantId, role, platformAdmin, kind, clientId, Optional.empty());
    }

    public Caller {
        requireNonNull(sub, "sub is null");
        requireNonNull(username, "username is null");
        requireNonNull(homeTenantId, "homeTenantId is null");
        requireNonNull(tenantId, "tenantId is null");
        requireNonNull(role, "role is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(clientId, "clientId is null");
        requireNonNull(sessionId, "sessionId is null");
    }

    /** The same caller acting in agent session {@code session}. */
    public Caller inSession(UUID session) {
        return new Caller(sub, username, homeTenantId, tenantId, role, platformAdmin, kind, clientId, Optional.of(session));
    }

    /** The role that applies in the tenant acted on: a platform_admin is a tenant_admin everywhere. */
    @JsonIgnore
    public Role effectiveRole() {
        return platformAdmin ? Role.TENANT_ADMIN : role;
    }

    /** Throws {@code 403 insufficient_role} unless the caller holds at least {@code needed}. */
    public void require(Role needed) {
        if (!effectiveRole().includes(needed)) {
            throw CommonErrors.INSUFFICIENT_ROLE.error("this needs role " + needed.wireName()
                    + "; the caller has " + role.wireName())
                    .withExtras("required_role", needed.wireName());
        }
    }

    /**
     * Throws {@code 403 human_required} unless a person calls directly: governance decisions (approving,
     * granting, registering principals) are never taken by an agent or by an agent acting for a user.
     */
    public void requireHuman(String what) {
        if (kind != PrincipalKind.HUMAN) {
            throw IdentityErrors.HUMAN_REQUIRED.error(what + " is for a person; this caller is a "
                    + kind.wireName() + " principal").withExtras("principal_kind", kind.wireName());
        }
    }

    /**
     * Throws {@code 403 human_required} when an agent (a registered agent principal, or a person's agent
     * session) calls: {@code what} changes what agents may do or are told (catalog review, definitions,
     * triggers, conventions, targets), so an agent deciding it could escape its own grants. Service
     * principals (a platform team's pipelines) pass; {@link #requireHuman} refuses them too.
     */
    public void refuseAgents(String what) {
        if (kind == PrincipalKind.AGENT || kind == PrincipalKind.USER_AGENT) {
            throw IdentityErrors.HUMAN_REQUIRED.error(what + " is decided by people, not agents; this caller is a "
                    + kind.wireName() + " principal").withExtras("principal_kind", kind.wireName());
        }
    }

    /**
     * The principals an agent or user-agent grant may name to bind this caller: its subject, and for an
     * agent principal also {@code svc-agent:<name>}, which binds the principal whether it calls with its own
     * token or acts in a run of an agent definition (whose subject it is).
     */
    @JsonIgnore
    public java.util.List<String> grantSubjects() {
        if (kind == PrincipalKind.AGENT && clientId.isPresent()) {
            String run = Subjects.agentRun(clientId.get());
            return run.equals(sub) ? java.util.List.of(sub) : java.util.List.of(sub, run);
        }
        return java.util.List.of(sub);
    }

    /** Throws {@code 403 insufficient_role} unless the caller is a platform_admin. */
    public void requirePlatformAdmin() {
        if (!platformAdmin) {
            throw CommonErrors.INSUFFICIENT_ROLE.error("this needs platform_admin")
                    .withExtras("required_role", "platform_admin");
        }
    }

    public boolean actsOnOtherTenant() {
        return homeTenantId.map(home -> !home.equals(tenantId)).orElse(true);
    }
}
