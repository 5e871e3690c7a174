package dev.backplane.kernel.governance;

import dev.backplane.kernel.governance.AgentPrincipals.AgentPrincipal;
import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** SQL for registered agent principals ({@code governance_agent_principals}); every statement is scoped by tenant. */
final class AgentPrincipalStore {

    /** Who an agent principal acts for and who registered it: both are accountable for its calls. */
    record Parties(String ownerSub, String registeredBy) {
    }

    private final Jdbc jdbc;

    AgentPrincipalStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    <T> T inTransaction(Jdbc.TxBody<T> body) {
        return jdbc.inTransaction(body);
    }

    /** Whether the principal is revoked; empty when no such principal is registered. */
    Optional<Boolean> revoked(UUID tenant, String name) {
        return jdbc.queryOne("SELECT revoked FROM governance_agent_principals WHERE tenant_id = ? AND name = ?",
                rs -> rs.getBoolean(1), tenant, name);
    }

    /** Registers the principal; false when the name is taken (nothing written). */
    boolean insert(UUID tenant, String name, String ownerSub, String registeredBy) {
        return jdbc.update("INSERT INTO governance_agent_principals (tenant_id, name, owner_sub, registered_by) "
                + "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", tenant, name, ownerSub, registeredBy) > 0;
    }

    List<AgentPrincipal> list(UUID tenant, boolean includeRevoked) {
        return jdbc.query("SELECT * FROM governance_agent_principals WHERE tenant_id = ? AND (? OR NOT revoked) ORDER BY name",
                AgentPrincipalStore::row, tenant, includeRevoked);
    }

    Optional<AgentPrincipal> find(UUID tenant, String name) {
        return jdbc.queryOne("SELECT * FROM governance_agent_principals WHERE tenant_id = ? AND name = ?",
                AgentPrincipalStore::row, tenant, name);
    }

    /** Marks the principal revoked if it is not yet; returns whether it changed. */
    static boolean revoke(Connection c, UUID tenant, String name, String revokedBy) throws SQLException {
        return Jdbc.update(c, "UPDATE governance_agent_principals SET revoked = true, revoked_at = now(), "
                + "revoked_by = ? WHERE tenant_id = ? AND name = ? AND NOT revoked", revokedBy, tenant, name) > 0;
    }

    /** The owner and registrant of the named principal (none when it is not registered). */
    static List<Parties> parties(Connection c, UUID tenant, String name) throws SQLException {
        return Jdbc.query(c, "SELECT owner_sub, registered_by FROM governance_agent_principals "
                + "WHERE tenant_id = ? AND name = ?", rs -> new Parties(rs.getString(1), rs.getString(2)), tenant, name);
    }

    private static AgentPrincipal row(ResultSet rs) throws SQLException {
        Timestamp revokedAt = rs.getTimestamp("revoked_at");
        return new AgentPrincipal(rs.getString("name"), rs.getString("owner_sub"), rs.getString("registered_by"),
                rs.getBoolean("revoked"),
                rs.getTimestamp("created_at").toInstant(), Optional.ofNullable(revokedAt).map(Timestamp::toInstant),
                Optional.ofNullable(rs.getString("revoked_by")));
    }
}
