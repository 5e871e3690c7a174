package dev.backplane.kernel.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.JsonMapping;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The SQL of the ingest and drain side of {@code events} and {@code event_deliveries}: the one-statement insert of
 * an event with its audit row and delivery rows, the duplicate lookup, and the drain's take-and-mark statements
 * (run on the drain's transaction, {@link #inTransaction}).
 */
final class EventStore {

    /** A due delivery: the subscriber, the event and the attempts made so far. */
    record Due(String subscriber, EventDrain.Event event, int attempts) {
    }

    private final Jdbc jdbc;

    EventStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    <T> T inTransaction(Jdbc.TxBody<T> body) {
        return jdbc.inTransaction(body);
    }

    /**
     * One statement, so one round trip and one commit: the event, its audit row ({@code audited}, selected from the
     * inserted event) and a delivery row per subscriber — all of them or none. Empty when the source already has an
     * event with this delivery id (nothing written then).
     */
    Optional<UUID> insert(UUID eventId, EventSource s, String deliveryId, String eventType, ObjectNode envelope,
                          Instant receivedAt, UUID auditId, AuditLog.Insert audited, String[] subscribers) {
        List<Object> params = new ArrayList<>(List.of(eventId, s.tenantId(), s.id(), s.slug(), s.kind().wire(),
                deliveryId));
        params.add(eventType);
        params.add(Jdbc.jsonb(envelope));
        params.add(Timestamp.from(receivedAt));
        params.add(auditId);
        params.addAll(audited.params());
        params.add(s.tenantId());
        params.add(subscribers);
        return jdbc.queryOne("""
                WITH ev AS (INSERT INTO events (id, tenant_id, source_id, source_slug, kind, delivery_id, event_type,
                                   envelope, received_at, audit_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                            ON CONFLICT (source_id, delivery_id) DO NOTHING RETURNING id),
                     au AS (""" + audited.sql() + """
                ),
                     dl AS (INSERT INTO event_deliveries (subscriber, event_id, tenant_id)
                            SELECT sub, ev.id, ? FROM ev CROSS JOIN unnest(?::text[]) AS sub)
                SELECT id FROM ev""",
                rs -> rs.getObject(1, UUID.class), params.toArray());
    }

    /** The event a source already has with this delivery id. */
    Optional<UUID> existing(UUID sourceId, String deliveryId) {
        return jdbc.queryOne("SELECT id FROM events WHERE source_id = ? AND delivery_id = ?",
                rs -> rs.getObject(1, UUID.class), sourceId, deliveryId);
    }

    /** Up to {@code limit} due pending deliveries to these subscribers, oldest due first, locked (skipping locked). */
    static List<Due> due(Connection c, String[] subscribers, int limit) throws SQLException {
        return Jdbc.query(c, """
                SELECT d.subscriber, e.id, e.tenant_id, e.source_id, e.source_slug, e.kind, e.event_type, e.envelope,
                       e.received_at, d.attempts
                  FROM event_deliveries d JOIN events e ON e.id = d.event_id
                 WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND d.subscriber = ANY (?)
                 ORDER BY d.next_attempt_at, d.created_at
                 LIMIT ? FOR UPDATE OF d SKIP LOCKED""", rs -> new Due(rs.getString(1),
                        new EventDrain.Event(rs.getObject(2, UUID.class), rs.getObject(3, UUID.class),
                                rs.getObject(4, UUID.class), rs.getString(5), rs.getString(6), rs.getString(7),
                                tree(rs.getString(8)), rs.getTimestamp(9).toInstant()), rs.getInt(10)),
                c.createArrayOf("text", subscribers), limit);
    }

    static void delivered(Connection c, String subscriber, UUID eventId) throws SQLException {
        Jdbc.update(c, "UPDATE event_deliveries SET status = 'delivered', attempts = attempts + 1, delivered_at = now(),"
                + " last_error = NULL WHERE subscriber = ? AND event_id = ?", subscriber, eventId);
    }

    /** Records a failed attempt: {@code failed} once attempts reach maxAttempts, else due again after the backoff. */
    static void failed(Connection c, String subscriber, UUID eventId, int attempts, String error, int maxAttempts,
                       double backoffSeconds) throws SQLException {
        Jdbc.update(c, """
                UPDATE event_deliveries SET attempts = ?, last_error = ?,
                       status = CASE WHEN ? >= ? THEN 'failed' ELSE 'pending' END,
                       next_attempt_at = now() + make_interval(secs => ?)
                 WHERE subscriber = ? AND event_id = ?""", attempts, error, attempts, maxAttempts, backoffSeconds,
                subscriber, eventId);
    }

    private static JsonNode tree(String json) throws SQLException {
        try {
            return JsonMapping.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new SQLException("stored envelope is not JSON", e);
        }
    }
}
