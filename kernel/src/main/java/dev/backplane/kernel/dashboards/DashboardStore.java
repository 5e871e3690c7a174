package dev.backplane.kernel.dashboards;

import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * SQL for dashboards ({@code dashboards}, {@code dashboard_sensors}) and the member sensors' states they roll up;
 * no rules. Writes that must hold together take the transaction's {@link Connection}.
 */
final class DashboardStore {

    /** A dashboard as written on create; empty optionals store SQL NULL. */
    record NewDashboard(UUID id, UUID tenant, String name, Optional<String> description, Optional<String> prompt,
                        Optional<String> agent, Optional<String> recipients, String minState, String createdBy) {
    }

    /** What the notifier reads of a locked dashboard; {@code lastNotified} null when it never notified. */
    record NotifySettings(String name, String rollup, String minState, String email, String agent, String prompt,
                          Instant lastNotified) {
    }

    private final Jdbc jdbc;

    DashboardStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    <T> T inTransaction(Jdbc.TxBody<T> body) {
        return jdbc.inTransaction(body);
    }

    static boolean nameTaken(Connection c, UUID tenant, String name) throws SQLException {
        return !Jdbc.query(c, "SELECT 1 FROM dashboards WHERE tenant_id = ? AND name = ?", rs -> 1, tenant, name)
                .isEmpty();
    }

    /** Which of these sensors are the tenant's, share-locked until commit so that none is deleted meanwhile. */
    static Set<UUID> lockSensors(Connection c, UUID tenant, List<UUID> sensors) throws SQLException {
        return new HashSet<>(Jdbc.query(c, "SELECT id FROM sensors WHERE tenant_id = ? "
                + "AND id = ANY(?::uuid[]) FOR SHARE", rs -> rs.getObject(1, UUID.class), tenant, strings(sensors)));
    }

    /** The last state of each of these sensors ({@code unknown} before the first result). */
    static List<String> states(Connection c, List<UUID> sensors) throws SQLException {
        return Jdbc.query(c, "SELECT coalesce(last_state, 'unknown') FROM sensors WHERE id = ANY(?::uuid[])",
                rs -> rs.getString(1), (Object) strings(sensors));
    }

    /** Inserts the dashboard with its roll-up, then its member sensors. */
    static void insert(Connection c, NewDashboard d, String rollup, List<UUID> sensors) throws SQLException {
        Jdbc.update(c, """
                INSERT INTO dashboards (id, tenant_id, name, description, investigator_prompt, investigator_agent,
                       notify_email, notify_min_state, rollup_state, created_by)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", d.id(), d.tenant(), d.name(), d.description().orElse(null),
                d.prompt().orElse(null), d.agent().orElse(null), d.recipients().orElse(null), d.minState(),
                rollup, d.createdBy());
        for (UUID s : sensors) {
            Jdbc.update(c, "INSERT INTO dashboard_sensors (dashboard_id, sensor_id) VALUES (?, ?)", d.id(), s);
        }
    }

    private static String[] strings(List<UUID> ids) {
        return ids.stream().map(UUID::toString).toArray(String[]::new);
    }

    List<UUID> listIds(UUID tenant, int limit, int offset) {
        return jdbc.query("SELECT id FROM dashboards WHERE tenant_id = ? ORDER BY name, id LIMIT ? OFFSET ?",
                rs -> rs.getObject(1, UUID.class), tenant, limit, offset);
    }

    Optional<Dashboard> find(UUID tenant, UUID id) {
        List<Dashboard.Member> members = jdbc.query("""
                SELECT s.id, s.name, coalesce(s.last_state, 'unknown') FROM dashboard_sensors d JOIN sensors s ON s.id = d.sensor_id
                 WHERE d.dashboard_id = ? AND s.tenant_id = ? ORDER BY s.name, s.id""",
                rs -> new Dashboard.Member(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3)), id, tenant);
        return jdbc.queryOne("SELECT * FROM dashboards WHERE tenant_id = ? AND id = ?", rs -> row(rs, members), tenant, id);
    }

    /** Deletes the dashboard (its sensors stay); false when there was none. */
    boolean delete(UUID tenant, UUID id) {
        return jdbc.update("DELETE FROM dashboards WHERE tenant_id = ? AND id = ?", tenant, id) > 0;
    }

    /** The dashboards holding this sensor. */
    List<UUID> holding(UUID sensor) {
        return jdbc.query("SELECT dashboard_id FROM dashboard_sensors WHERE sensor_id = ?",
                rs -> rs.getObject(1, UUID.class), sensor);
    }

    /** The dashboard's notification settings, row-locked until commit; empty when it is gone. */
    static Optional<NotifySettings> lockForNotify(Connection c, UUID dashboard, UUID tenant) throws SQLException {
        return Jdbc.query(c, """
                SELECT name, rollup_state, notify_min_state, notify_email, investigator_agent, investigator_prompt,
                       last_notified_at FROM dashboards WHERE id = ? AND tenant_id = ? FOR UPDATE""",
                rs -> new NotifySettings(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getString(6),
                        Optional.ofNullable(rs.getTimestamp(7)).map(Timestamp::toInstant).orElse(null)),
                dashboard, tenant).stream().findFirst();
    }

    /** Each member sensor with its state and its latest result's detail, by name. */
    static List<DashboardNotifier.Evidence> evidence(Connection c, UUID dashboard) throws SQLException {
        return Jdbc.query(c, """
                SELECT s.id, s.name, coalesce(s.last_state, 'unknown'), r.detail, r.evaluated_at
                  FROM dashboard_sensors d JOIN sensors s ON s.id = d.sensor_id
                  LEFT JOIN LATERAL (SELECT detail, evaluated_at FROM sensor_results x WHERE x.sensor_id = s.id
                                      ORDER BY x.id DESC LIMIT 1) r ON true
                 WHERE d.dashboard_id = ? ORDER BY s.name""", rs -> new DashboardNotifier.Evidence(
                rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3),
                Optional.ofNullable(rs.getString(4)).orElse("no result yet"),
                Optional.ofNullable(rs.getTimestamp(5)).map(Timestamp::toInstant)), dashboard);
    }

    static void setRollup(Connection c, UUID dashboard, String rollup) throws SQLException {
        Jdbc.update(c, "UPDATE dashboards SET rollup_state = ?, rollup_changed_at = now() WHERE id = ?", rollup,
                dashboard);
    }

    /** Claims a notification: stamps {@code last_notified_at}. */
    static void claim(Connection c, UUID dashboard, Instant at) throws SQLException {
        Jdbc.update(c, "UPDATE dashboards SET last_notified_at = ? WHERE id = ?", Timestamp.from(at), dashboard);
    }

    /** Undoes the claim made at {@code claimedAt}, unless another claim came since. */
    void unclaim(UUID dashboard, Optional<Instant> previously, Instant claimedAt) {
        jdbc.update("UPDATE dashboards SET last_notified_at = ? WHERE id = ? AND last_notified_at = ?",
                previously.map(Timestamp::from).orElse(null), dashboard, Timestamp.from(claimedAt));
    }

    private static Dashboard row(ResultSet rs, List<Dashboard.Member> members) throws SQLException {
        return new Dashboard(rs.getObject("id", UUID.class), rs.getString("name"),
                Optional.ofNullable(rs.getString("description")), Optional.ofNullable(rs.getString("investigator_prompt")),
                Optional.ofNullable(rs.getString("investigator_agent")), Optional.ofNullable(rs.getString("notify_email")),
                rs.getString("notify_min_state"), members.stream().map(Dashboard.Member::id).toList(), members,
                Rollup.of(members.stream().map(Dashboard.Member::state).toList()),
                Optional.ofNullable(rs.getTimestamp("last_notified_at")).map(Timestamp::toInstant),
                rs.getString("created_by"), rs.getTimestamp("created_at").toInstant());
    }
}
