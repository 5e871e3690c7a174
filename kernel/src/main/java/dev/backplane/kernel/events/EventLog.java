package dev.backplane.kernel.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.persistence.FilteredSelect;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.PeriodicJob;
import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.kernel.util.Paging;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** The durable event log as operators read it ({@code svc events list|show}) and its retention sweep. */
public final class EventLog {

    public static final Paging.Size PAGE = new Paging.Size(100, 500);

    /** A page of events, newest first; {@code nextCursor} reads the next (older) page. */
    public record Page(List<Map<String, Object>> events, Optional<String> nextCursor) {
    }

    private final Jdbc jdbc;
    private final int retentionDays;

    public EventLog(Jdbc jdbc, int retentionDays) {
        this.jdbc = jdbc;
        this.retentionDays = retentionDays;
    }

    /**
     * The tenant's events, newest first.
     *
     * @param cursor {@code <received_at>|<id>} of the last event of the previous page
     */
    public Page list(UUID tenant, Optional<String> source, Optional<String> eventType, int limit,
                     Optional<String> cursor) {
        if (limit < 1 || limit > PAGE.max()) {
            throw CommonErrors.INVALID_LIMIT.error("limit must be 1.." + PAGE.max(), Map.of("field", "limit"));
        }
        FilteredSelect select = new FilteredSelect("SELECT id, source_slug, kind, delivery_id, event_type, received_at, "
                + "audit_id, envelope - 'raw' AS summary FROM events WHERE tenant_id = ?", tenant)
                .and("source_slug = ?", source)
                .and("event_type = ?", eventType);
        if (cursor.isPresent()) {
            String[] parts = cursor.get().split("\\|", 2);
            try {
                Instant at = dev.backplane.kernel.util.Times.inRange(Instant.parse(parts[0]), "cursor", "invalid_cursor");
                UUID id = UUID.fromString(parts[1]);
                select.append(" AND (received_at, id) < (?, ?)", Timestamp.from(at), id);
            } catch (RuntimeException e) {
                throw CommonErrors.INVALID_CURSOR.error("cursor must be the next_cursor of a previous page",
                        Map.of("field", "cursor"));
            }
        }
        List<Map<String, Object>> rows = select.append(" ORDER BY received_at DESC, id DESC LIMIT ?", limit + 1)
                .query(jdbc, rs -> row(rs, false));
        Optional<String> next = Optional.empty();
        if (rows.size() > limit) {
            rows = rows.subList(0, limit);
            Map<String, Object> last = rows.getLast();
            next = Optional.of(last.get("received_at") + "|" + last.get("id"));
        }
        return new Page(rows, next);
    }

    /** One event with its whole envelope (raw body included); another tenant's is not found. */
    public Map<String, Object> show(UUID tenant, UUID id) {
        return jdbc.queryOne("SELECT id, source_slug, kind, delivery_id, event_type, received_at, audit_id, "
                        + "envelope AS summary FROM events WHERE tenant_id = ? AND id = ?", rs -> row(rs, true), tenant, id)
                .orElseThrow(() -> EventErrors.EVENT_NOT_FOUND.error("no event " + id + " in this tenant"));
    }

    /** Deletes events older than the retention; returns how many. */
    public int sweep() {
        return jdbc.update("DELETE FROM events WHERE received_at < now() - make_interval(days => ?)", retentionDays);
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

    /** Deleting events past the retention. */
    public List<PeriodicJob> periodicJobs() {
        return List.of(new PeriodicJob("events-retention-sweep", java.time.Duration.ofHours(1), this::sweep));
    }
}
