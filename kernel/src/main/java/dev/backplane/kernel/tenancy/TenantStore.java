package dev.backplane.kernel.tenancy;

import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** SQL for the tenancy tables. */
final class TenantStore {

    private final Jdbc jdbc;

    TenantStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    void insertIfAbsent(UUID id) {
        jdbc.update("INSERT INTO tenancy_tenants (id) VALUES (?) ON CONFLICT (id) DO NOTHING", id);
    }

    void rememberName(String sub, String username) {
        jdbc.update("""
                INSERT INTO tenancy_principal_names (sub, username) VALUES (?, ?)
                ON CONFLICT (sub) DO UPDATE SET username = EXCLUDED.username, updated_at = now()
                 WHERE tenancy_principal_names.username <> EXCLUDED.username""", sub, username);
    }

    Optional<TenantView> view(UUID id) {
        return jdbc.queryOne("SELECT id, display_name, display_name_updated_at, display_name_updated_by "
                + "FROM tenancy_tenants WHERE id = ?", rs -> new TenantView(rs.getObject(1, UUID.class),
                        Optional.ofNullable(rs.getString(2)),
                        Optional.ofNullable(rs.getTimestamp(3)).map(java.sql.Timestamp::toInstant),
                        Optional.ofNullable(rs.getString(4))), id);
    }

    void setDisplayName(UUID id, Optional<String> name, String actor) {
        jdbc.update("UPDATE tenancy_tenants SET display_name = ?, display_name_updated_at = now(), "
                + "display_name_updated_by = ? WHERE id = ?", name.orElse(null), actor, id);
    }

    boolean exists(UUID id) {
        return jdbc.queryOne("SELECT 1 FROM tenancy_tenants WHERE id = ?", rs -> true, id).isPresent();
    }

    Optional<FlightRecorderPolicy> flightRecorderPolicy(UUID tenantId) {
        return jdbc.queryOne("""
                SELECT enabled, agent_readable, retention_days, updated_at, updated_by
                  FROM tenancy_flight_recorder_policies WHERE tenant_id = ?""", TenantStore::policy, tenantId);
    }

    FlightRecorderPolicy updateFlightRecorderPolicy(UUID tenantId, FlightRecorderPolicy.Change change, String actor) {
        return jdbc.inTransaction(c -> {
            FlightRecorderPolicy current = Jdbc.query(c, """
                            SELECT enabled, agent_readable, retention_days, updated_at, updated_by
                              FROM tenancy_flight_recorder_policies WHERE tenant_id = ? FOR UPDATE""",
                    TenantStore::policy, tenantId).stream().findFirst().orElse(FlightRecorderPolicy.DEFAULT);
            boolean enabled = change.enabled().orElse(current.enabled());
            String readable = change.agentReadable().orElse(current.agentReadable());
            Integer retention = change.clearRetention().orElse(false) ? null
                    : change.retentionDays().or(current::retentionDays).orElse(null);
            upsert(c, tenantId, enabled, readable, retention, actor);
            return Jdbc.query(c, """
                            SELECT enabled, agent_readable, retention_days, updated_at, updated_by
                              FROM tenancy_flight_recorder_policies WHERE tenant_id = ?""",
                    TenantStore::policy, tenantId).getFirst();
        });
    }

    Optional<MailRecipientPolicy> mailRecipientPolicy(UUID tenantId) {
        return jdbc.queryOne("""
                SELECT allowlist, updated_at, updated_by FROM tenancy_mail_recipient_policies WHERE tenant_id = ?""",
                TenantStore::mailPolicy, tenantId);
    }

    MailRecipientPolicy setMailRecipientPolicy(UUID tenantId, List<String> allowlist, String actor) {
        return jdbc.queryOne("""
                INSERT INTO tenancy_mail_recipient_policies (tenant_id, allowlist, updated_at, updated_by)
                VALUES (?, ?, now(), ?)
                ON CONFLICT (tenant_id) DO UPDATE
                   SET allowlist = EXCLUDED.allowlist, updated_at = now(), updated_by = EXCLUDED.updated_by
                RETURNING allowlist, updated_at, updated_by""", TenantStore::mailPolicy,
                tenantId, allowlist.toArray(String[]::new), actor).orElseThrow();
    }

    /** Removes the policy; true when there was one. */
    boolean clearMailRecipientPolicy(UUID tenantId) {
        return jdbc.update("DELETE FROM tenancy_mail_recipient_policies WHERE tenant_id = ?", tenantId) > 0;
    }

    private static MailRecipientPolicy mailPolicy(ResultSet rs) throws SQLException {
        String[] entries = (String[]) rs.getArray("allowlist").getArray();
        return new MailRecipientPolicy(Optional.of(List.of(entries)),
                Optional.of(rs.getTimestamp("updated_at").toInstant()), Optional.of(rs.getString("updated_by")));
    }

    private static void upsert(Connection c, UUID tenantId, boolean enabled, String readable, Integer retention,
                               String actor) throws SQLException {
        Jdbc.update(c, """
                INSERT INTO tenancy_flight_recorder_policies
                       (tenant_id, enabled, agent_readable, retention_days, updated_at, updated_by)
                VALUES (?, ?, ?, ?, now(), ?)
                ON CONFLICT (tenant_id) DO UPDATE
                   SET enabled = EXCLUDED.enabled, agent_readable = EXCLUDED.agent_readable,
                       retention_days = EXCLUDED.retention_days, updated_at = now(), updated_by = EXCLUDED.updated_by""",
                tenantId, enabled, readable, retention, actor);
    }

    private static FlightRecorderPolicy policy(ResultSet rs) throws SQLException {
        int retention = rs.getInt("retention_days");
        Optional<Integer> days = rs.wasNull() ? Optional.empty() : Optional.of(retention);
        Timestamp at = rs.getTimestamp("updated_at");
        return new FlightRecorderPolicy(rs.getBoolean("enabled"), rs.getString("agent_readable"), days,
                Optional.ofNullable(at).map(Timestamp::toInstant), Optional.ofNullable(rs.getString("updated_by")));
    }
}
