package dev.backplane.kernel.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.backplane.kernel.persistence.FilteredSelect;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.JsonMapping;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** SQL for reading the durable event log ({@code events}) as operators see it, and its retention sweep. */
final class EventLogStore {

    /** Where a page starts: after the event received at {@code at} with id {@code id} (newest first). */
    record After(Instant at, UUID id) {
    }

    private final Jdbc jdbc;

    EventLogStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** Up to {@code rows} events of the tenant, newest first, each with its envelope less the raw body. */
    List<Map<String, Object>> page(UUID tenant, Optional<String> source, Optional<String> eventType,
                                   Optional<After> after, int rows) {
        FilteredSelect select = new FilteredSelect("SELECT id, source_slug, kind, delivery_id, event_type, received_at, "
                + "audit_id, envelope - 'raw' AS summary FROM events WHERE tenant_id = ?", tenant)
                .and("source_slug = ?", source)
                .and("event_type = ?", eventType);
        after.ifPresent(a -> select.append(" AND (received_at, id) < (?, ?)", Timestamp.from(a.at()), a.id()));
        return select.append(" ORDER BY received_at DESC, id DESC LIMIT ?", rows).query(jdbc, rs -> row(rs, false));
    }

    /** One event with its whole envelope (raw body included). */
    Optional<Map<String, Object>> find(UUID tenant, UUID id) {
        return jdbc.queryOne("SELECT id, source_slug, kind, delivery_id, event_type, received_at, audit_id, "
                + "envelope AS summary FROM events WHERE tenant_id = ? AND id = ?", rs -> row(rs, true), tenant, id);
    }

    /** Deletes events older than {@code days}; returns how many. */
    int deleteOlderThan(int days) {
        return jdbc.update("DELETE FROM events WHERE received_at < now() - make_interval(days => ?)", days);
    }

    private static Map<String, Object> row(ResultSet rs, boolean whole) throws SQLException {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", rs.getObject("id", UUID.class).toString());
        m.put("source", rs.getString("source_slug"));
        m.put("kind", rs.getString("kind"));
        m.put("event_type", rs.getString("event_type"));
        m.put("delivery_id", rs.getString("delivery_id"));
        m.put("received_at", rs.getTimestamp("received_at").toInstant().toString());
        m.put("audit_id", rs.getObject("audit_id", UUID.class).toString());
        try {
            m.put(whole ? "envelope" : "summary", JsonMapping.mapper().readTree(rs.getString("summary")));
        } catch (JsonProcessingException e) {
            throw new SQLException("stored envelope is not JSON", e);
        }
        return m;
    }
}
