package dev.backplane.kernel.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.JsonMapping;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The SQL of the ingest and drain side of {@code events} and {@code event_deliveries}: the one-statement insert of
 * an event with its audit row and delivery rows (several events in one transaction: {@link EventCommits}), the
 * duplicate lookup, and the drain's take-and-mark statements (run on the drain's transaction, {@link #inTransaction}).
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

    /** An accepted delivery to store: the event, its audit row ({@code audited}) and its subscribers. */
    record NewEvent(UUID eventId, EventSource source, String deliveryId, String eventType, ObjectNode envelope,
                    Instant receivedAt, UUID auditId, AuditLog.Insert audited, String[] subscribers) {
    }

    /**
     * One statement per event: the event, its delivery rows per subscriber and its audit row (the statement's own
     * insert, selected from the inserted event, so its row count says whether the event was new) — all of them or
     * none. One event is one auto-committed statement; several are one transaction of batched statements (one round
     * trip, one commit, one disk flush). Each entry of the answer: whether that event was written (false: its source
     * already has an event with its delivery id, an earlier one of this batch included).
     */
    boolean[] insert(List<NewEvent> events) {
        return jdbc.inConnection(c -> {
            if (events.size() == 1) {
                NewEvent e = events.getFirst();
                try (PreparedStatement ps = c.prepareStatement(sql(e))) {
                    bind(ps, e);
                    return new boolean[] {ps.executeUpdate() > 0};
                }
            }
            c.setAutoCommit(false);
            try {
                boolean[] written = batch(c, events);
                c.commit();
                return written;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        });
    }

    private static boolean[] batch(Connection c, List<NewEvent> events) throws SQLException {
        // one prepared statement per distinct text (the audit insert's text is the same for every event today)
        Map<String, List<Integer>> bySql = new LinkedHashMap<>();
        for (int i = 0; i < events.size(); i++) {
            bySql.computeIfAbsent(sql(events.get(i)), k -> new ArrayList<>()).add(i);
        }
        boolean[] written = new boolean[events.size()];
        for (Map.Entry<String, List<Integer>> group : bySql.entrySet()) {
            try (PreparedStatement ps = c.prepareStatement(group.getKey())) {
                for (int i : group.getValue()) {
                    bind(ps, events.get(i));
                    ps.addBatch();
                }
                int[] counts = ps.executeBatch();
                for (int j = 0; j < counts.length; j++) {
                    written[group.getValue().get(j)] = counts[j] > 0;
                }
            }
        }
        return written;
    }

    private static String sql(NewEvent e) {
        return """
                WITH ev AS (INSERT INTO events (id, tenant_id, source_id, source_slug, kind, delivery_id, event_type,
                                   envelope, received_at, audit_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                            ON CONFLICT (source_id, delivery_id) DO NOTHING RETURNING id),
                     dl AS (INSERT INTO event_deliveries (subscriber, event_id, tenant_id)
                            SELECT sub, ev.id, ? FROM ev CROSS JOIN unnest(?::text[]) AS sub)
                """ + e.audited().sql();
    }

    private static void bind(PreparedStatement ps, NewEvent e) throws SQLException {
        EventSource s = e.source();
        List<Object> params = new ArrayList<>(List.of(e.eventId(), s.tenantId(), s.id(), s.slug(), s.kind().wire(),
                e.deliveryId()));
        params.add(e.eventType());
        params.add(Jdbc.jsonb(e.envelope()));
        params.add(Timestamp.from(e.receivedAt()));
        params.add(e.auditId());
        params.add(s.tenantId());
        params.add(e.subscribers());
        params.addAll(e.audited().params());
        for (int i = 0; i < params.size(); i++) {
            ps.setObject(i + 1, params.get(i));
        }
    }

    /** The event a source already has with this delivery id. */
    Optional<UUID> existing(UUID sourceId, String deliveryId) {
        return jdbc.queryOne("SELECT id FROM events WHERE source_id = ? AND delivery_id = ?",
                rs -> rs.getObject(1, UUID.class), sourceId, deliveryId);
    }

    /**
     * Up to {@code limit} due pending deliveries to these subscribers (each at most its share of the limit), oldest
     * due first within each subscriber, locked (skipping locked). Each subscriber's rows come from {@code event_deliveries_pending} in order, and only
     * those are joined to their events: the planner cannot choose to join and sort every pending row on statistics
     * that lag a burst.
     */
    static List<Due> due(Connection c, String[] subscribers, int limit) throws SQLException {
        List<Due> due = new ArrayList<>();
        int share = Math.max(1, (limit + subscribers.length - 1) / subscribers.length); // a backlog starves no one
        for (String subscriber : subscribers) {
            if (due.size() >= limit) {
                break;
            }
            due.addAll(Jdbc.query(c, """
                    WITH d AS MATERIALIZED (
                        SELECT subscriber, event_id, attempts, next_attempt_at, created_at FROM event_deliveries
                         WHERE subscriber = ? AND status = 'pending' AND next_attempt_at <= now()
                         ORDER BY next_attempt_at, created_at
                         LIMIT ? FOR UPDATE SKIP LOCKED)
                    SELECT d.subscriber, e.id, e.tenant_id, e.source_id, e.source_slug, e.kind, e.event_type,
                           e.envelope, e.received_at, d.attempts
                      FROM d JOIN events e ON e.id = d.event_id
                     ORDER BY d.next_attempt_at, d.created_at""", rs -> new Due(rs.getString(1),
                            new EventDrain.Event(rs.getObject(2, UUID.class), rs.getObject(3, UUID.class),
                                    rs.getObject(4, UUID.class), rs.getString(5), rs.getString(6), rs.getString(7),
                                    tree(rs.getString(8)), rs.getTimestamp(9).toInstant()), rs.getInt(10)),
                    subscriber, Math.min(share, limit - due.size())));
        }
        return due;
    }

    /**
     * Removes these deliveries, one statement for all of them: a delivered row has no reader (the subscriber's writes,
     * committed with it, are the record), and a delete writes no index entry where marking it wrote four (V060).
     *
     * <p>The same statement lets the drain's transaction commit without waiting for its flush
     * ({@link Jdbc#UNFLUSHED_COMMIT}). A crash before the flush loses the acknowledgement and the subscriber's writes
     * together, so the delivery is repeated, never lost and never half done. What it saves is the drain's wait: it
     * takes its next batch at once (measured: lower p50s at every rate up to 2,000/s and a lower 3,000/s p99,
     * bench/results/events.md). A batch whose every delivery failed commits as usual.
     */
    static void delivered(Connection c, List<Due> done) throws SQLException {
        if (done.isEmpty()) {
            return;
        }
        Jdbc.update(c, "DELETE FROM event_deliveries d USING unnest(?::uuid[], ?::text[]) AS v(event_id, subscriber), "
                + Jdbc.UNFLUSHED_COMMIT + " WHERE d.event_id = v.event_id AND d.subscriber = v.subscriber",
                done.stream().map(d -> d.event().id()).toArray(UUID[]::new),
                done.stream().map(Due::subscriber).toArray(String[]::new));
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
