package dev.backplane.kernel.governance;

import dev.backplane.kernel.governance.Grants.Grant;
import dev.backplane.kernel.governance.ServiceGrants.ServiceGrant;
import dev.backplane.kernel.persistence.Jdbc;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * SQL for both grant tables: agent grants ({@code governance_grants}) and service grants
 * ({@code governance_service_grants}). A revoked grant keeps its row, marked revoked.
 */
final class GrantStore {

    private static final String GRANTS = "governance_grants";
    private static final String SERVICE_GRANTS = "governance_service_grants";

    private final Jdbc jdbc;

    GrantStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    void insertGrant(UUID id, UUID tenant, String principal, String kind, String op, String target, String verdict,
                     Optional<Instant> expires, boolean elevation, String createdBy) {
        jdbc.update("""
                INSERT INTO governance_grants (id, tenant_id, principal, principal_kind, op_pattern, target, verdict,
                       expires_at, elevation, created_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                id, tenant, principal, kind, op, target, verdict, expires.map(Timestamp::from).orElse(null), elevation,
                createdBy);
    }

    List<Grant> listGrants(UUID tenant, Optional<String> principal, boolean includeExpired, boolean includeRevoked,
                           int limit, int offset) {
        return jdbc.query("""
                SELECT * FROM governance_grants WHERE tenant_id = ? AND (?::text IS NULL OR principal = ?)
                   AND (? OR NOT revoked) AND (? OR expires_at IS NULL OR expires_at > now())
                 ORDER BY created_at DESC, id LIMIT ? OFFSET ?""", GrantStore::grant, tenant, principal.orElse(null),
                principal.orElse(null), includeRevoked, includeExpired, limit, offset);
    }

    Optional<Grant> findGrant(UUID tenant, UUID id) {
        return find(GRANTS, GrantStore::grant, tenant, id);
    }

    void revokeGrant(UUID id) {
        revoke(GRANTS, id);
    }

    /** The unrevoked grants of any of {@code principals} of this kind; expiry and matching are the caller's. */
    List<Grant> unrevokedGrants(UUID tenant, List<String> principals, String kind) {
        return jdbc.query("SELECT * FROM governance_grants WHERE tenant_id = ? AND principal = ANY (?) "
                + "AND principal_kind = ? AND NOT revoked", GrantStore::grant, tenant, principals.toArray(String[]::new),
                kind);
    }

    void insertServiceGrant(UUID id, UUID tenant, String principal, String connectorId, String opId, String reason,
                            Optional<UUID> target, Optional<String> namePattern, Optional<String> product,
                            Optional<Instant> expires, String createdBy) {
        jdbc.update("""
                INSERT INTO governance_service_grants (id, tenant_id, principal, connector_id, op_id, reason, target_id,
                       target_name_pattern, target_product, expires_at, created_by)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", id, tenant, principal, connectorId, opId, reason,
                target.orElse(null), namePattern.orElse(null), product.orElse(null),
                expires.map(Timestamp::from).orElse(null), createdBy);
    }

    List<ServiceGrant> listServiceGrants(UUID tenant, Optional<String> principal, boolean includeExpired,
                                         boolean includeRevoked) {
        return jdbc.query("""
                SELECT * FROM governance_service_grants WHERE tenant_id = ? AND (?::text IS NULL OR principal = ?)
                   AND (? OR NOT revoked) AND (? OR expires_at IS NULL OR expires_at > now())
                 ORDER BY created_at DESC, id""", GrantStore::serviceGrant, tenant, principal.orElse(null),
                principal.orElse(null), includeRevoked, includeExpired);
    }

    Optional<ServiceGrant> findServiceGrant(UUID tenant, UUID id) {
        return find(SERVICE_GRANTS, GrantStore::serviceGrant, tenant, id);
    }

    void revokeServiceGrant(UUID id) {
        revoke(SERVICE_GRANTS, id);
    }

    /** The unrevoked service grants of the principal for exactly this operation; expiry and targets are the caller's. */
    List<ServiceGrant> unrevokedServiceGrants(UUID tenant, String principal, String connectorId, String opId) {
        return jdbc.query("""
                SELECT * FROM governance_service_grants WHERE tenant_id = ? AND principal = ? AND connector_id = ?
                   AND op_id = ? AND NOT revoked""", GrantStore::serviceGrant, tenant, principal, connectorId, opId);
    }

    /** {@code table} is one of the two grant tables above, never caller text. */
    private <T> Optional<T> find(String table, Jdbc.RowMapper<T> row, UUID tenant, UUID id) {
        return jdbc.queryOne("SELECT * FROM " + table + " WHERE tenant_id = ? AND id = ?", row, tenant, id);
    }

    private void revoke(String table, UUID id) {
        jdbc.update("UPDATE " + table + " SET revoked = true WHERE id = ?", id);
    }

    private static Optional<Instant> expiresAt(ResultSet rs) throws SQLException {
        return Optional.ofNullable(rs.getTimestamp("expires_at")).map(Timestamp::toInstant);
    }

    private static Grant grant(ResultSet rs) throws SQLException {
        return new Grant(rs.getObject("id", UUID.class), rs.getString("principal"), rs.getString("principal_kind"),
                rs.getString("op_pattern"), rs.getString("target"), rs.getString("verdict"),
                expiresAt(rs), rs.getBoolean("elevation"), rs.getBoolean("revoked"),
                rs.getString("created_by"), rs.getTimestamp("created_at").toInstant());
    }

    private static ServiceGrant serviceGrant(ResultSet rs) throws SQLException {
        return new ServiceGrant(rs.getObject("id", UUID.class), rs.getString("principal"), rs.getString("connector_id"),
                rs.getString("op_id"), rs.getString("reason"), Optional.ofNullable(rs.getObject("target_id", UUID.class)),
                Optional.ofNullable(rs.getString("target_name_pattern")), Optional.ofNullable(rs.getString("target_product")),
                expiresAt(rs), rs.getBoolean("revoked"), rs.getString("created_by"),
                rs.getTimestamp("created_at").toInstant());
    }
}
