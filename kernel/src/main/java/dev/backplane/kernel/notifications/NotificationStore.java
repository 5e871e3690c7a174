package dev.backplane.kernel.notifications;

import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** SQL of notifications: {@code notification_settings} and the outbox {@code notification_outbox}. */
final class NotificationStore {

    private static final String SETTINGS = """
            SELECT enabled, mail_recipients, webhook_url, webhook_format, webhook_secret_ref, events, updated_at,
                   updated_by FROM notification_settings WHERE tenant_id = ?""";

    private final Jdbc jdbc;

    NotificationStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    Optional<NotificationSettings> settings(UUID tenant) {
        return jdbc.queryOne(SETTINGS, NotificationStore::settings, tenant);
    }

    /** The settings read in an approval's transaction. */
    static Optional<NotificationSettings> settings(Connection c, UUID tenant) throws SQLException {
        return Jdbc.query(c, SETTINGS, NotificationStore::settings, tenant).stream().findFirst();
    }

    NotificationSettings put(UUID tenant, NotificationSettings s, String actor) {
        return jdbc.queryOne("""
                INSERT INTO notification_settings (tenant_id, enabled, mail_recipients, webhook_url, webhook_format,
                       webhook_secret_ref, events, updated_at, updated_by)
                VALUES (?, ?, ?, ?, ?, ?, ?, now(), ?)
                ON CONFLICT (tenant_id) DO UPDATE
                   SET enabled = EXCLUDED.enabled, mail_recipients = EXCLUDED.mail_recipients,
                       webhook_url = EXCLUDED.webhook_url, webhook_format = EXCLUDED.webhook_format,
                       webhook_secret_ref = EXCLUDED.webhook_secret_ref, events = EXCLUDED.events,
                       updated_at = now(), updated_by = EXCLUDED.updated_by
                RETURNING enabled, mail_recipients, webhook_url, webhook_format, webhook_secret_ref, events,
                          updated_at, updated_by""", NotificationStore::settings,
                tenant, s.enabled(), s.mailRecipients().toArray(String[]::new), s.webhookUrl().orElse(null),
                s.webhookFormat(), s.webhookSecretRef().orElse(null), s.events().toArray(String[]::new), actor)
                .orElseThrow();
    }

    /** Removes the settings; true when there were some. */
    boolean clear(UUID tenant) {
        return jdbc.update("DELETE FROM notification_settings WHERE tenant_id = ?", tenant) > 0;
    }

    /** Writes one outbox row in the approval's transaction. */
    static void enqueue(Connection c, UUID tenant, UUID approval, String event, String channel,
                        Map<String, Object> message) throws SQLException {
        Jdbc.update(c, """
                INSERT INTO notification_outbox (id, tenant_id, approval_id, event, channel, message)
                VALUES (?, ?, ?, ?, ?, ?)""", UUID.randomUUID(), tenant, approval, event, channel, Jdbc.jsonb(message));
    }

    /**
     * Claims up to {@code limit} due rows: each counts one more attempt and is leased (its next attempt moved
     * {@code lease} ahead), so another replica's job skips it while it is sent and takes it again if this one dies.
     */
    List<Outbox> claimDue(int limit, Duration lease) {
        return jdbc.query("""
                UPDATE notification_outbox SET attempts = attempts + 1,
                       next_attempt_at = now() + make_interval(secs => ?)
                 WHERE id IN (SELECT id FROM notification_outbox WHERE status = 'pending' AND next_attempt_at <= now()
                               ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED)
                RETURNING id, tenant_id, approval_id, event, channel, message, attempts""",
                rs -> new Outbox(rs.getObject("id", UUID.class), rs.getObject("tenant_id", UUID.class),
                        rs.getObject("approval_id", UUID.class), rs.getString("event"), rs.getString("channel"),
                        Jdbc.jsonObject(rs, "message"), rs.getInt("attempts")),
                (double) lease.toSeconds(), limit);
    }

    void delivered(UUID id) {
        jdbc.update("UPDATE notification_outbox SET status = 'delivered', delivered_at = now(), last_error = NULL "
                + "WHERE id = ? AND status = 'pending'", id);
    }

    void retryAt(UUID id, Instant at, String error) {
        jdbc.update("UPDATE notification_outbox SET next_attempt_at = ?, last_error = ? WHERE id = ? AND status = 'pending'",
                Timestamp.from(at), error, id);
    }

    /** Ends a row without delivering it: {@code failed} (gave up) or {@code cancelled} (nothing to send it to). */
    void end(UUID id, String status, String error) {
        jdbc.update("UPDATE notification_outbox SET status = ?, last_error = ? WHERE id = ? AND status = 'pending'",
                status, error, id);
    }

    /** Rows waiting to be delivered, across tenants (the pending gauge). */
    long pending() {
        return jdbc.queryOne("SELECT count(*) FROM notification_outbox WHERE status = 'pending'", rs -> rs.getLong(1))
                .orElse(0L);
    }

    private static NotificationSettings settings(ResultSet rs) throws SQLException {
        Timestamp updated = rs.getTimestamp("updated_at");
        return new NotificationSettings(true, rs.getBoolean("enabled"), strings(rs, "mail_recipients"),
                Optional.ofNullable(rs.getString("webhook_url")), rs.getString("webhook_format"),
                Optional.ofNullable(rs.getString("webhook_secret_ref")), strings(rs, "events"),
                Optional.ofNullable(updated).map(Timestamp::toInstant), Optional.ofNullable(rs.getString("updated_by")));
    }

    private static List<String> strings(ResultSet rs, String column) throws SQLException {
        return Arrays.asList((String[]) rs.getArray(column).getArray());
    }
}
