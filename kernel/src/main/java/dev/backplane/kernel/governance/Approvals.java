package dev.backplane.kernel.governance;

import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.broadcast.BroadcastFeed;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.PeriodicJob;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Approval requests: a call whose operation requires approval is parked here, whoever made it,
 * with the resolved request shown to approvers. Pending requests are approved (by someone other than
 * the requester — four-eyes — unless an audited break-glass is used on that one request), rejected,
 * or expire after their TTL.
 */
public final class Approvals {

    public static final Set<String> STATUSES = Collections.unmodifiableSet(ApprovalStatus.wireNames());

    /** What a parked call needs to run later and what approvers are shown. */
    public record Parked(UUID tenantId, String requester, String requesterKind, Optional<String> requesterClientId,
                         String connectorId, String opId, String target, UUID targetId, Map<String, Object> params,
                         Map<String, Object> resolved, Optional<String> workRef, Optional<UUID> requesterSessionId) {
    }

    /** An approval request as the API shows it (params appear inside {@code resolved}). */
    public record Approval(UUID id, String status, String requester, String connectorId, String opId, String target,
                           Optional<String> workRef, Map<String, Object> resolved, Instant createdAt, Instant expiresAt,
                           Optional<String> decidedBy, Optional<Instant> decidedAt, Optional<String> reason,
                           boolean breakGlass, Optional<UUID> executionAuditId, Optional<String> requesterUsername,
                           Optional<String> decidedByUsername) {
    }

    /**
     * A call released by an approval, ready for the pipeline.
     *
     * @param requesterSessionId the session the call was parked in: the released call is audited in it too
     */
    public record Released(Approval approval, String requesterKind, Optional<String> requesterClientId, UUID targetId,
                           Map<String, Object> params, Optional<UUID> requesterSessionId) {
    }

    /**
     * The people accountable for what an agent session (a run) did besides its principal: who started it, the
     * author of the trigger or dashboard that started it, the author of its definition. Implemented by the
     * agents capability, which owns runs; asked inside the approval's transaction.
     */
    @FunctionalInterface
    public interface SessionParties {
        /** Each accountable subject, with why it is (a phrase such as "who started agent run ..."). */
        Map<String, String> of(Connection c, UUID tenant, UUID session) throws SQLException;
    }

    private final ApprovalStore store;
    private final Duration ttl;
    private final ApprovalNotices notices;
    private final FourEyes fourEyes;
    private final ApprovalEvents events;

    /** @param events what each transition also writes in its transaction (the notification outbox) */
    public Approvals(Jdbc jdbc, Duration ttl, AuditLog audit, BroadcastFeed broadcast, SessionParties sessionParties,
                     ApprovalEvents events) {
        this.store = new ApprovalStore(jdbc);
        this.ttl = ttl;
        this.notices = new ApprovalNotices(audit, broadcast);
        this.fourEyes = new FourEyes(sessionParties);
        this.events = events;
    }

    /** Parks a call: the pending request and its {@code parked} event commit in one transaction. */
    public UUID park(Parked p) {
        UUID id = UUID.randomUUID();
        Instant expiresAt = Instant.now().plus(ttl);
        store.inTransaction(c -> {
            ApprovalStore.insertPending(c, id, p, expiresAt);
            events.recorded(c, p.tenantId(), ApprovalStore.byId(c, id), ApprovalEvents.PARKED);
            return id;
        });
        return id;
    }

    public List<Approval> list(UUID tenant, Optional<String> status, Optional<String> workRef, int limit, int offset) {
        Optional<ApprovalStatus> wanted = status.map(s -> ApprovalStatus.parse(s).orElseThrow(() ->
                CommonErrors.INVALID_STATUS.error("status must be one of " + STATUSES, Map.of("field", "status"))));
        if (limit < 1 || limit > 500 || offset < 0) {
            throw CommonErrors.INVALID_LIMIT.error("limit must be 1..500 and offset >= 0", Map.of());
        }
        expireDue();
        return store.list(tenant, wanted, workRef, limit, offset);
    }

    /** How many of the tenant's requests wait for a decision now. */
    public int pendingCount(UUID tenant) {
        return store.pendingCount(tenant);
    }

    public Approval show(UUID tenant, UUID id) {
        expireDue();
        return store.find(tenant, id).orElseThrow(() -> notFound(id.toString()));
    }

    /**
     * Approves a pending request. Four-eyes: the requester cannot approve their own request unless
     * {@code breakGlass} is set with a reason (recorded on the row and in the audit).
     */
    public Released approve(Caller caller, UUID id, Optional<String> reason, boolean breakGlass) {
        caller.requireHuman("approving a parked call");
        Released released = store.inTransaction(c -> {
            ApprovalStore.Locked row = lockToMove(c, caller.tenantId(), id, ApprovalStatus.APPROVED);
            fourEyes.check(c, caller.tenantId(), row, caller.sub(), reason, breakGlass);
            ApprovalStore.approve(c, row.id(), caller.sub(), reason, breakGlass);
            Approval a = ApprovalStore.byId(c, row.id());
            notices.recordTransition(c, caller, a, "approve", breakGlass);
            events.recorded(c, caller.tenantId(), a, ApprovalEvents.APPROVED);
            return new Released(a, row.requesterKind(), row.requesterClientId(), row.targetId(), row.params(),
                    row.requesterSessionId());
        });
        notices.announce(caller, released.approval(), "approved");
        return released;
    }

    /** Rejects a pending request (any tenant_admin, the requester included) and audits the transition. */
    public Approval reject(Caller caller, UUID id, Optional<String> reason) {
        caller.requireHuman("rejecting a parked call");
        Approval rejected = store.inTransaction(c -> {
            ApprovalStore.Locked row = lockToMove(c, caller.tenantId(), id, ApprovalStatus.REJECTED);
            ApprovalStore.reject(c, row.id(), caller.sub(), reason);
            Approval a = ApprovalStore.byId(c, row.id());
            notices.recordTransition(c, caller, a, "reject", false);
            events.recorded(c, caller.tenantId(), a, ApprovalEvents.REJECTED);
            return a;
        });
        notices.announce(caller, rejected, "rejected");
        return rejected;
    }

    /**
     * Withdraws a pending request on behalf of the work that parked it (a runbook run that was stopped or
     * aborted while its step waited): rejected with the reason, its transition audited
     * ({@code svc.approval.withdraw}), so the parked call never runs. False when it was no longer pending
     * (decided or expired meanwhile).
     */
    public boolean withdraw(Caller caller, UUID id, String reason) {
        boolean withdrawn = store.inTransaction(c -> {
            if (!ApprovalStore.rejectIfPending(c, caller.tenantId(), id, caller.sub(), reason)) {
                return false;
            }
            Approval a = ApprovalStore.byId(c, id);
            notices.recordTransition(c, caller, a, "withdraw", false);
            events.recorded(c, caller.tenantId(), a, ApprovalEvents.WITHDRAWN);
            return true;
        });
        if (withdrawn) {
            notices.announce(caller, show(caller.tenantId(), id), "withdrawn");
        }
        return withdrawn;
    }

    /** Links the approval to the audit row of its execution. */
    public void linkExecution(UUID approvalId, UUID auditId) {
        store.linkExecution(approvalId, auditId);
    }

    /**
     * Moves pending requests past their TTL to expired, each with its {@code expired} event in the same
     * transaction; returns how many. Run periodically and before reads.
     */
    public int expireDue() {
        return store.inTransaction(c -> {
            List<ApprovalStore.Expired> expired = ApprovalStore.expireDue(c);
            for (ApprovalStore.Expired e : expired) {
                events.recorded(c, e.tenantId(), ApprovalStore.byId(c, e.id()), ApprovalEvents.EXPIRED);
            }
            return expired.size();
        });
    }

    /** Expiring approval requests past their TTL. */
    public List<PeriodicJob> periodicJobs() {
        return List.of(new PeriodicJob("approvals-expiry", Duration.ofMinutes(1), this::expireDue));
    }

    /** What an approval id answers when it is not a uuid or names no request of the tenant. */
    public static DomainException notFound(String id) {
        return GovernanceErrors.APPROVAL_NOT_FOUND.error("no approval request " + id + " in this tenant");
    }

    /**
     * Why {@code caller} could not approve request {@code id} under four-eyes ("the requester", "who started agent run
     * ..."), or empty when they could: what the console asks to offer or withhold its approve button. The decision
     * itself checks again under the row's lock ({@link #approve}).
     */
    public Optional<String> fourEyesBound(Caller caller, UUID id) {
        return store.inTransaction(c -> {
            ApprovalStore.Locked row = ApprovalStore.parties(c, caller.tenantId(), id)
                    .orElseThrow(() -> notFound(id.toString()));
            return fourEyes.bound(c, caller.tenantId(), row, caller.sub());
        });
    }

    /** The request locked for a decision, once it is expired if due; refused unless it may move to {@code next}. */
    private static ApprovalStore.Locked lockToMove(Connection c, UUID tenant, UUID id, ApprovalStatus next)
            throws SQLException {
        ApprovalStore.Locked row = ApprovalStore.expireThenLock(c, tenant, id).orElseThrow(() -> notFound(id.toString()));
        if (!row.status().canMoveTo(next)) {
            throw GovernanceErrors.APPROVAL_NOT_PENDING.error("approval request " + id + " is "
                    + row.status().wireName() + ", not pending", Map.of("status", row.status().wireName()));
        }
        return row;
    }
}
