package dev.backplane.kernel.governance;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.broadcast.Activity;
import dev.backplane.kernel.broadcast.BroadcastFeed;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.PeriodicJob;
import dev.backplane.kernel.util.JsonMapping;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.postgresql.util.PGobject;

/**
 * Approval requests: a call whose operation requires approval is parked here, whoever made it,
 * with the resolved request shown to approvers. Pending requests are approved (by someone other than
 * the requester — four-eyes — unless an audited break-glass is used on that one request), rejected,
 * or expire after their TTL.
 */
public final class Approvals {

    public static final Set<String> STATUSES = Set.of("pending", "approved", "rejected", "expired");

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

    /*
     * An approval with the display names of its requester and decider (tenancy's record of the
     * preferred_username each sub's token carried). Joined here, read-only, so a page stays one query.
     */
    private static final String SELECT = """
            SELECT a.*, rn.username AS requester_username, dn.username AS decided_by_username
              FROM governance_approvals a
              LEFT JOIN tenancy_principal_names rn ON rn.sub = a.requester
              LEFT JOIN tenancy_principal_names dn ON dn.sub = a.decided_by
            """;

    /** A call released by an approval, ready for the pipeline. */
    /** @param requesterSessionId the session the call was parked in: the released call is audited in it too */
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
        Map<String, String> of(java.sql.Connection c, UUID tenant, UUID session) throws SQLException;
    }

    private final Jdbc jdbc;
    private final Duration ttl;
    private final AuditLog audit;
    private final BroadcastFeed broadcast;
    private final SessionParties sessionParties;

    public Approvals(Jdbc jdbc, Duration ttl, AuditLog audit, BroadcastFeed broadcast, SessionParties sessionParties) {
        this.jdbc = jdbc;
        this.broadcast = broadcast;
        this.ttl = ttl;
        this.audit = audit;
        this.sessionParties = sessionParties;
    }

    public UUID park(Parked p) {
        UUID id = UUID.randomUUID();
        jdbc.inTransaction(c -> Jdbc.update(c, """
                INSERT INTO governance_approvals (id, tenant_id, status, requester, requester_kind, requester_client_id,
                       connector_id, op_id, target, target_id, params, resolved, work_ref, expires_at, requester_session_id)
                VALUES (?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                id, p.tenantId(), p.requester(), p.requesterKind(), p.requesterClientId().orElse(null), p.connectorId(),
                p.opId(), p.target(), p.targetId(),
                jsonb(p.params()), jsonb(p.resolved()), p.workRef().orElse(null),
                Timestamp.from(Instant.now().plus(ttl)), p.requesterSessionId().orElse(null)));
        return id;
    }

    public List<Approval> list(UUID tenant, Optional<String> status, Optional<String> workRef, int limit, int offset) {
        status.ifPresent(s -> {
            if (!STATUSES.contains(s)) {
                throw CommonErrors.INVALID_STATUS.error("status must be one of " + STATUSES, Map.of("field", "status"));
            }
        });
        if (limit < 1 || limit > 500 || offset < 0) {
            throw CommonErrors.INVALID_LIMIT.error("limit must be 1..500 and offset >= 0", Map.of());
        }
        expireDue();
        return jdbc.query(SELECT + "WHERE a.tenant_id = ? AND (?::text IS NULL OR a.status = ?) "
                        + "AND (?::text IS NULL OR a.work_ref = ?) ORDER BY a.created_at DESC, a.id LIMIT ? OFFSET ?",
                Approvals::approval, tenant, status.orElse(null), status.orElse(null), workRef.orElse(null),
                workRef.orElse(null), limit, offset);
    }

    public Approval show(UUID tenant, UUID id) {
        expireDue();
        return jdbc.queryOne(SELECT + "WHERE a.tenant_id = ? AND a.id = ?", Approvals::approval,
                tenant, id).orElseThrow(() -> notFound(id.toString()));
    }

    /**
     * Approves a pending request. Four-eyes: the requester cannot approve their own request unless
     * {@code breakGlass} is set with a reason (recorded on the row and in the audit).
     */
    public Released approve(Caller caller, UUID id, Optional<String> reason, boolean breakGlass) {
        caller.requireHuman("approving a parked call");
        Released released = decideApprove(caller, id, reason, breakGlass);
        announce(caller, released.approval(), "approved");
        return released;
    }

    /** Rejects a pending request (any tenant_admin, the requester included) and audits the transition. */
    public Approval reject(Caller caller, UUID id, Optional<String> reason) {
        caller.requireHuman("rejecting a parked call");
        Approval rejected = decideReject(caller, id, reason);
        announce(caller, rejected, "rejected");
        return rejected;
    }

    /** A decision on the tenant's activity feed: the requester as principal, the approver as actor. */
    private void announce(Caller approver, Approval a, String decision) {
        broadcast.publish(Activity.of(approver.tenantId(), Activity.Kind.APPROVAL, decision + " call " + a.connectorId()
                + "/" + a.opId() + " on " + a.target(), a.requester(), approver.sub(), Optional.of(decision))
                .withOperation(a.connectorId(), a.opId(), Optional.empty()).withTarget(Optional.of(a.target()))
                .withWork(a.workRef(), Optional.empty()));
    }

    /** The transition's audit row, written in the transition's own transaction: both commit or neither. */
    private void recordTransition(java.sql.Connection c, Caller caller, Approval a, String action, boolean breakGlass)
            throws SQLException {
        Map<String, Object> extras = new LinkedHashMap<>();
        extras.put("approval_request_id", a.id().toString());
        extras.put("requested_op_id", a.opId());
        extras.put("requester", a.requester());
        if (breakGlass) {
            extras.put("break_glass", true);
        }
        audit.recordIn(c, AuditLog.Entry.by(caller, AuditClass.OTHER, "svc.approval." + action)
                .connector(a.connectorId()).target(a.target()).workRef(a.workRef()), "ok", Optional.of(a.id()), extras);
    }

    private Released decideApprove(Caller caller, UUID id, Optional<String> reason, boolean breakGlass) {
        UUID tenant = caller.tenantId();
        String approver = caller.sub();
        return jdbc.inTransaction(c -> {
            Map<String, Object> row = pendingForUpdate(c, tenant, id);
            Optional<String> client = Optional.ofNullable((String) row.get("requester_client_id"));
            String bound = accountable(c, tenant, row, client).get(approver);
            if (bound != null && !breakGlass) {
                throw GovernanceErrors.FOUR_EYES.error(bound + " cannot approve this request; another approver must "
                        + "(an audited break-glass exists for emergencies)");
            }
            if (breakGlass && reason.filter(r -> !r.isBlank()).isEmpty()) {
                throw GovernanceErrors.REASON_REQUIRED.error("break-glass approval needs a reason",
                        Map.of("field", "reason"));
            }
            // the raw params leave the row with the decision: the released call carries them from here
            Jdbc.update(c, """
                    UPDATE governance_approvals SET status = 'approved', decided_by = ?, decided_at = now(), reason = ?,
                           break_glass = ?, params = '{}'::jsonb WHERE id = ?""", approver, reason.orElse(null),
                    breakGlass, row.get("id"));
            Approval a = Jdbc.query(c, SELECT + "WHERE a.id = ?", Approvals::approval,
                    row.get("id")).getFirst();
            recordTransition(c, caller, a, "approve", breakGlass);
            return new Released(a, (String) row.get("requester_kind"), client, (UUID) row.get("target_id"), params(row),
                    Optional.ofNullable((UUID) row.get("requester_session_id")));
        });
    }

    /**
     * Everyone four-eyes keeps from approving a parked call, with why (review 3, S3): the requester; for an
     * agent principal's call its owner and its registrant; for a call parked in an agent run whoever started the
     * run, wrote the trigger or dashboard that started it, or wrote its definition. The first reason given for a
     * subject wins.
     */
    private Map<String, String> accountable(java.sql.Connection c, UUID tenant, Map<String, Object> row,
                                            Optional<String> client) throws SQLException {
        Map<String, String> parties = new LinkedHashMap<>();
        parties.put((String) row.get("requester"), "the requester");
        if (client.isPresent()) {
            for (String[] p : Jdbc.query(c, "SELECT owner_sub, registered_by FROM governance_agent_principals "
                    + "WHERE tenant_id = ? AND name = ?", rs -> new String[] {rs.getString(1), rs.getString(2)}, tenant,
                    client.get())) {
                parties.putIfAbsent(p[0], "the owner of agent principal '" + client.get() + "' (it acts on the owner's "
                        + "behalf)");
                parties.putIfAbsent(p[1], "who registered agent principal '" + client.get() + "'");
            }
        }
        UUID session = (UUID) row.get("requester_session_id");
        if (session != null) {
            sessionParties.of(c, tenant, session).forEach(parties::putIfAbsent);
        }
        return parties;
    }

    /**
     * Withdraws a pending request on behalf of the work that parked it (a runbook run that was stopped or
     * aborted while its step waited): rejected with the reason, its transition audited
     * ({@code svc.approval.withdraw}), so the parked call never runs. False when it was no longer pending
     * (decided or expired meanwhile).
     */
    public boolean withdraw(Caller caller, UUID id, String reason) {
        boolean withdrawn = jdbc.inTransaction(c -> {
            int n = Jdbc.update(c, "UPDATE governance_approvals SET status = 'rejected', decided_by = ?, decided_at = now(), "
                    + "reason = ?, params = '{}'::jsonb WHERE tenant_id = ? AND id = ? AND status = 'pending' "
                    + "AND expires_at > now()", caller.sub(), reason, caller.tenantId(), id);
            if (n == 0) {
                return false;
            }
            Approval a = Jdbc.query(c, SELECT + "WHERE a.id = ?", Approvals::approval, id).getFirst();
            recordTransition(c, caller, a, "withdraw", false);
            return true;
        });
        if (withdrawn) {
            announce(caller, show(caller.tenantId(), id), "withdrawn");
        }
        return withdrawn;
    }

    private Approval decideReject(Caller caller, UUID id, Optional<String> reason) {
        return jdbc.inTransaction(c -> {
            Map<String, Object> row = pendingForUpdate(c, caller.tenantId(), id);
            Jdbc.update(c, "UPDATE governance_approvals SET status = 'rejected', decided_by = ?, decided_at = now(), "
                    + "reason = ?, params = '{}'::jsonb WHERE id = ?", caller.sub(), reason.orElse(null), row.get("id"));
            Approval a = Jdbc.query(c, SELECT + "WHERE a.id = ?", Approvals::approval,
                    row.get("id")).getFirst();
            recordTransition(c, caller, a, "reject", false);
            return a;
        });
    }

    /**
     * The kill switch's reach into parked calls: every pending request of the agent principal is
     * rejected (in the caller's transaction), so nothing it parked runs after it was revoked.
     *
     * @return how many were withdrawn
     */
    static int withdrawPendingOf(java.sql.Connection c, UUID tenant, String clientId, String revokedBy) throws SQLException {
        return Jdbc.update(c, "UPDATE governance_approvals SET status = 'rejected', decided_by = ?, decided_at = now(), "
                + "reason = 'agent principal revoked (kill switch)', params = '{}'::jsonb WHERE tenant_id = ? "
                + "AND requester_client_id = ? "
                + "AND status = 'pending'", revokedBy, tenant, clientId);
    }

    /** Links the approval to the audit row of its execution. */
    public void linkExecution(UUID approvalId, UUID auditId) {
        jdbc.update("UPDATE governance_approvals SET execution_audit_id = ? WHERE id = ?", auditId, approvalId);
    }

    /** Moves pending requests past their TTL to expired; returns how many. Run periodically and before reads. */
    public int expireDue() {
        return jdbc.update("UPDATE governance_approvals SET status = 'expired', params = '{}'::jsonb "
                + "WHERE status = 'pending' AND expires_at <= now()");
    }

    private Map<String, Object> pendingForUpdate(java.sql.Connection c, UUID tenant, UUID id) throws SQLException {
        Jdbc.update(c, "UPDATE governance_approvals SET status = 'expired', params = '{}'::jsonb WHERE id = ? "
                + "AND status = 'pending' AND expires_at <= now()", id);
        List<Map<String, Object>> rows = Jdbc.query(c, """
                SELECT id, status, requester, requester_kind, requester_client_id, target_id, params::text AS params,
                       requester_session_id
                  FROM governance_approvals WHERE tenant_id = ? AND id = ? FOR UPDATE""", rs -> {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("id", rs.getObject("id", UUID.class));
                    m.put("status", rs.getString("status"));
                    m.put("requester", rs.getString("requester"));
                    m.put("requester_kind", rs.getString("requester_kind"));
                    m.put("requester_client_id", rs.getString("requester_client_id"));
                    m.put("requester_session_id", rs.getObject("requester_session_id", UUID.class));
                    m.put("target_id", rs.getObject("target_id", UUID.class));
                    m.put("params", rs.getString("params"));
                    return m;
                }, tenant, id);
        if (rows.isEmpty()) {
            throw notFound(id.toString());
        }
        Map<String, Object> row = rows.getFirst();
        if (!"pending".equals(row.get("status"))) {
            throw GovernanceErrors.APPROVAL_NOT_PENDING.error("approval request " + id + " is "
                    + row.get("status") + ", not pending", Map.of("status", row.get("status")));
        }
        return row;
    }

    private static Map<String, Object> params(Map<String, Object> row) {
        return readMap((String) row.get("params"));
    }

    private static Approval approval(ResultSet rs) throws SQLException {
        Timestamp decided = rs.getTimestamp("decided_at");
        return new Approval(rs.getObject("id", UUID.class), rs.getString("status"), rs.getString("requester"),
                rs.getString("connector_id"), rs.getString("op_id"), rs.getString("target"),
                Optional.ofNullable(rs.getString("work_ref")), readMap(rs.getString("resolved")),
                rs.getTimestamp("created_at").toInstant(), rs.getTimestamp("expires_at").toInstant(),
                Optional.ofNullable(rs.getString("decided_by")), Optional.ofNullable(decided).map(Timestamp::toInstant),
                Optional.ofNullable(rs.getString("reason")), rs.getBoolean("break_glass"),
                Optional.ofNullable(rs.getObject("execution_audit_id", UUID.class)),
                Optional.ofNullable(rs.getString("requester_username")),
                Optional.ofNullable(rs.getString("decided_by_username")));
    }

    private static Map<String, Object> readMap(String json) {
        try {
            return JsonMapping.mapper().readValue(json, new TypeReference<LinkedHashMap<String, Object>>() { });
        } catch (Exception e) {
            throw new IllegalStateException("stored JSON is unreadable", e);
        }
    }

    /** What an approval id answers when it is not a uuid or names no request of the tenant. */
    static DomainException notFound(String id) {
        return GovernanceErrors.APPROVAL_NOT_FOUND.error("no approval request " + id + " in this tenant");
    }

    private static PGobject jsonb(Object value) throws SQLException {
        PGobject o = new PGobject();
        o.setType("jsonb");
        o.setValue(JsonMapping.write(value));
        return o;
    }

    /** Expiring approval requests past their TTL. */
    public List<PeriodicJob> periodicJobs() {
        return List.of(new PeriodicJob("approvals-expiry", Duration.ofMinutes(1), this::expireDue));
    }
}
