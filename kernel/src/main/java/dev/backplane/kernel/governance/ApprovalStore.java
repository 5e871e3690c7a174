package dev.backplane.kernel.governance;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.backplane.kernel.governance.Approvals.Approval;
import dev.backplane.kernel.governance.Approvals.Parked;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.JsonMapping;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * SQL for approval requests ({@code governance_approvals}). Every decision clears the stored raw params; which
 * moves are allowed is {@link ApprovalStatus}'s, who may make them is {@link Approvals}'.
 */
final class ApprovalStore {

    /** A request locked for a decision: what the decision checks and what the released call needs. */
    record Locked(UUID id, ApprovalStatus status, String requester, String requesterKind,
                  Optional<String> requesterClientId, Optional<UUID> requesterSessionId, UUID targetId,
                  Map<String, Object> params) {
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

    private final Jdbc jdbc;

    ApprovalStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    <T> T inTransaction(Jdbc.TxBody<T> body) {
        return jdbc.inTransaction(body);
    }

    static void insertPending(Connection c, UUID id, Parked p, Instant expiresAt) throws SQLException {
        Jdbc.update(c, """
                INSERT INTO governance_approvals (id, tenant_id, status, requester, requester_kind, requester_client_id,
                       connector_id, op_id, target, target_id, params, resolved, work_ref, expires_at, requester_session_id)
                VALUES (?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                id, p.tenantId(), p.requester(), p.requesterKind(), p.requesterClientId().orElse(null), p.connectorId(),
                p.opId(), p.target(), p.targetId(),
                Jdbc.jsonb(p.params()), Jdbc.jsonb(p.resolved()), p.workRef().orElse(null),
                Timestamp.from(expiresAt), p.requesterSessionId().orElse(null));
    }

    List<Approval> list(UUID tenant, Optional<ApprovalStatus> status, Optional<String> workRef, int limit, int offset) {
        Optional<String> s = status.map(ApprovalStatus::wireName);
        return jdbc.query(SELECT + "WHERE a.tenant_id = ? AND (?::text IS NULL OR a.status = ?) "
                        + "AND (?::text IS NULL OR a.work_ref = ?) ORDER BY a.created_at DESC, a.id LIMIT ? OFFSET ?",
                ApprovalStore::approval, tenant, s.orElse(null), s.orElse(null), workRef.orElse(null),
                workRef.orElse(null), limit, offset);
    }

    /** How many of the tenant's requests wait for a decision (pending and not past their TTL). */
    int pendingCount(UUID tenant) {
        return jdbc.queryOne("SELECT count(*) FROM governance_approvals WHERE tenant_id = ? AND status = 'pending' "
                + "AND expires_at > now()", rs -> rs.getInt(1), tenant).orElse(0);
    }

    Optional<Approval> find(UUID tenant, UUID id) {
        return jdbc.queryOne(SELECT + "WHERE a.tenant_id = ? AND a.id = ?", ApprovalStore::approval, tenant, id);
    }

    /** The request as shown, read in the deciding transaction. */
    static Approval byId(Connection c, UUID id) throws SQLException {
        return Jdbc.query(c, SELECT + "WHERE a.id = ?", ApprovalStore::approval, id).getFirst();
    }

    /** Expires this one request if it is pending past its TTL, then locks it ({@code FOR UPDATE}). */
    static Optional<Locked> expireThenLock(Connection c, UUID tenant, UUID id) throws SQLException {
        Jdbc.update(c, "UPDATE governance_approvals SET status = 'expired', params = '{}'::jsonb WHERE id = ? "
                + "AND status = 'pending' AND expires_at <= now()", id);
        return Jdbc.query(c, """
                SELECT id, status, requester, requester_kind, requester_client_id, target_id, params::text AS params,
                       requester_session_id
                  FROM governance_approvals WHERE tenant_id = ? AND id = ? FOR UPDATE""", rs -> new Locked(
                        rs.getObject("id", UUID.class), status(rs.getString("status")), rs.getString("requester"),
                        rs.getString("requester_kind"), Optional.ofNullable(rs.getString("requester_client_id")),
                        Optional.ofNullable(rs.getObject("requester_session_id", UUID.class)),
                        rs.getObject("target_id", UUID.class), readMap(rs.getString("params"))),
                tenant, id).stream().findFirst();
    }

    /** Who a request binds under four-eyes, read without a lock (what a page shows before anyone decides). */
    static Optional<Locked> parties(Connection c, UUID tenant, UUID id) throws SQLException {
        return Jdbc.query(c, """
                SELECT id, status, requester, requester_kind, requester_client_id, target_id, requester_session_id
                  FROM governance_approvals WHERE tenant_id = ? AND id = ?""", rs -> new Locked(
                        rs.getObject("id", UUID.class), status(rs.getString("status")), rs.getString("requester"),
                        rs.getString("requester_kind"), Optional.ofNullable(rs.getString("requester_client_id")),
                        Optional.ofNullable(rs.getObject("requester_session_id", UUID.class)),
                        rs.getObject("target_id", UUID.class), Map.of()),
                tenant, id).stream().findFirst();
    }

    /** Records an approval; the raw params leave the row with the decision (the released call carries them). */
    static void approve(Connection c, UUID id, String approver, Optional<String> reason, boolean breakGlass)
            throws SQLException {
        Jdbc.update(c, """
                UPDATE governance_approvals SET status = 'approved', decided_by = ?, decided_at = now(), reason = ?,
                       break_glass = ?, params = '{}'::jsonb WHERE id = ?""", approver, reason.orElse(null),
                breakGlass, id);
    }

    static void reject(Connection c, UUID id, String by, Optional<String> reason) throws SQLException {
        Jdbc.update(c, "UPDATE governance_approvals SET status = 'rejected', decided_by = ?, decided_at = now(), "
                + "reason = ?, params = '{}'::jsonb WHERE id = ?", by, reason.orElse(null), id);
    }

    /** Rejects the request in one statement if it is still pending and not past its TTL; false otherwise. */
    static boolean rejectIfPending(Connection c, UUID tenant, UUID id, String by, String reason) throws SQLException {
        return Jdbc.update(c, "UPDATE governance_approvals SET status = 'rejected', decided_by = ?, decided_at = now(), "
                + "reason = ?, params = '{}'::jsonb WHERE tenant_id = ? AND id = ? AND status = 'pending' "
                + "AND expires_at > now()", by, reason, tenant, id) > 0;
    }

    /** Rejects every pending request an agent principal parked (the kill switch); returns which. */
    static List<UUID> rejectPendingOf(Connection c, UUID tenant, String clientId, String revokedBy) throws SQLException {
        return Jdbc.query(c, "UPDATE governance_approvals SET status = 'rejected', decided_by = ?, decided_at = now(), "
                + "reason = 'agent principal revoked (kill switch)', params = '{}'::jsonb WHERE tenant_id = ? "
                + "AND requester_client_id = ? "
                + "AND status = 'pending' RETURNING id", rs -> rs.getObject("id", UUID.class), revokedBy, tenant, clientId);
    }

    void linkExecution(UUID approvalId, UUID auditId) {
        jdbc.update("UPDATE governance_approvals SET execution_audit_id = ? WHERE id = ?", auditId, approvalId);
    }

    /** A request the expiry moved. */
    record Expired(UUID id, UUID tenantId) {
    }

    /** Moves every pending request past its TTL to expired; returns which. */
    static List<Expired> expireDue(Connection c) throws SQLException {
        return Jdbc.query(c, "UPDATE governance_approvals SET status = 'expired', params = '{}'::jsonb "
                + "WHERE status = 'pending' AND expires_at <= now() RETURNING id, tenant_id",
                rs -> new Expired(rs.getObject("id", UUID.class), rs.getObject("tenant_id", UUID.class)));
    }

    private static ApprovalStatus status(String wire) {
        return ApprovalStatus.parse(wire).orElseThrow(() -> new IllegalStateException("stored status " + wire));
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
}
