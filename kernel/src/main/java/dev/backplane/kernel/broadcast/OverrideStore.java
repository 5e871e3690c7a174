package dev.backplane.kernel.broadcast;

import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** SQL for the tenants' overrides ({@code broadcast_overrides}); every statement is scoped by tenant. No rules. */
final class OverrideStore {

    private final Jdbc jdbc;

    OverrideStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    <T> T inTransaction(Jdbc.TxBody<T> body) {
        return jdbc.inTransaction(body);
    }

    /** Serializes the tenant's override writers across replicas (the per-tenant limit holds until commit). */
    static void lockTenant(Connection c, UUID tenant) throws SQLException {
        Jdbc.query(c, "SELECT pg_advisory_xact_lock(hashtext(?))", rs -> 1, "broadcast-overrides/" + tenant);
    }

    /** Whether the tenant has a rule with this pattern and scope. */
    static boolean exists(Connection c, UUID tenant, String pattern, String field, String value) throws SQLException {
        return !Jdbc.query(c, "SELECT 1 FROM broadcast_overrides WHERE tenant_id = ? AND op_id_pattern = ? "
                + "AND scope_field = ? AND scope_value = ?", rs -> 1, tenant, pattern, field, value).isEmpty();
    }

    static int count(Connection c, UUID tenant) throws SQLException {
        return Jdbc.query(c, "SELECT count(*) FROM broadcast_overrides WHERE tenant_id = ?", rs -> rs.getInt(1),
                tenant).getFirst();
    }

    /** Creates the rule, or changes the detail (and author) of the rule with the same pattern and scope. */
    static BroadcastOverrides.Override upsert(Connection c, UUID tenant, String actor, String pattern, String detail,
                                              String field, String value) throws SQLException {
        return Jdbc.query(c, """
                INSERT INTO broadcast_overrides (id, tenant_id, op_id_pattern, detail, scope_field, scope_value, created_by)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (tenant_id, op_id_pattern, scope_field, scope_value)
                DO UPDATE SET detail = EXCLUDED.detail, created_by = EXCLUDED.created_by, created_at = now()
                RETURNING *""", OverrideStore::read, UUID.randomUUID(), tenant, pattern, detail, field, value,
                actor).getFirst();
    }

    Optional<BroadcastOverrides.Override> delete(UUID tenant, UUID id) {
        return jdbc.queryOne("DELETE FROM broadcast_overrides WHERE tenant_id = ? AND id = ? RETURNING *",
                OverrideStore::read, tenant, id);
    }

    /** The tenant's rules, by pattern, then scope. */
    List<BroadcastOverrides.Override> all(UUID tenant) {
        return jdbc.query("SELECT * FROM broadcast_overrides WHERE tenant_id = ? "
                + "ORDER BY op_id_pattern, scope_field, scope_value", OverrideStore::read, tenant);
    }

    private static BroadcastOverrides.Override read(ResultSet rs) throws SQLException {
        return new BroadcastOverrides.Override(rs.getObject("id", UUID.class), rs.getString("op_id_pattern"),
                rs.getString("detail"), rs.getString("scope_field"), rs.getString("scope_value"),
                rs.getString("created_by"), rs.getTimestamp("created_at").toInstant());
    }
}
