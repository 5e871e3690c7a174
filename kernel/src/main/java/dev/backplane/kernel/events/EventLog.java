package dev.backplane.kernel.events;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.PeriodicJob;
import dev.backplane.kernel.util.Paging;
import dev.backplane.kernel.util.Times;
import java.time.Duration;
import java.time.Instant;
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

    private final EventLogStore store;
    private final int retentionDays;

    public EventLog(Jdbc jdbc, int retentionDays) {
        this.store = new EventLogStore(jdbc);
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
        Optional<EventLogStore.After> after = cursor.map(EventLog::after);
        List<Map<String, Object>> rows = store.page(tenant, source, eventType, after, limit + 1);
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
        return store.find(tenant, id)
                .orElseThrow(() -> EventErrors.EVENT_NOT_FOUND.error("no event " + id + " in this tenant"));
    }

    /** Deletes events older than the retention; returns how many. */
    public int sweep() {
        return store.deleteOlderThan(retentionDays);
    }

    /** Reads {@code <received_at>|<id>}, the next_cursor of a previous page. */
    private static EventLogStore.After after(String cursor) {
        String[] parts = cursor.split("\\|", 2);
        try {
            Instant at = Times.inRange(Instant.parse(parts[0]), "cursor", "invalid_cursor");
            return new EventLogStore.After(at, UUID.fromString(parts[1]));
        } catch (RuntimeException e) {
            throw CommonErrors.INVALID_CURSOR.error("cursor must be the next_cursor of a previous page",
                    Map.of("field", "cursor"));
        }
    }

    /** Deleting events past the retention. */
    public List<PeriodicJob> periodicJobs() {
        return List.of(new PeriodicJob("events-retention-sweep", Duration.ofHours(1), this::sweep));
    }
}
