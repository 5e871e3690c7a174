package dev.backplane.kernel.audit.stream;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each sink's lag as the metrics gauges read it: computed from the database at most once a second per sink, so a
 * scrape costs three indexed reads per sink whichever replica it hits (the stream runs on one replica only).
 */
final class LagCache {

    private static final System.Logger LOG = System.getLogger(LagCache.class.getName());
    private static final Duration FRESH = Duration.ofSeconds(1);
    private final AuditStreamStore store;
    private final Map<String, Timed> cache = new ConcurrentHashMap<>();

    private record Timed(Lag lag, Instant at) {
    }

    LagCache(AuditStreamStore store) {
        this.store = store;
    }

    /** The sink's lag, empty when the database cannot be read. */
    Optional<Lag> get(String sink) {
        Timed t = cache.get(sink);
        if (t != null && t.at().plus(FRESH).isAfter(Instant.now())) {
            return Optional.of(t.lag());
        }
        try {
            Lag lag = compute(store, sink);
            cache.put(sink, new Timed(lag, Instant.now()));
            return Optional.of(lag);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "audit stream lag of " + sink + " unreadable: " + e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * The lag now: rows chained after the sink's acknowledged position, and how long the oldest of them has waited:
     * since the later of the sink's last acknowledgement and the row's own time (0 when caught up).
     */
    static Lag compute(AuditStreamStore store, String sink) {
        AuditStreamStore.Cursor cursor = store.cursor(sink);
        long head = store.head().position();
        long rows = Math.max(0, head - cursor.acknowledged());
        double seconds = 0;
        if (rows > 0) {
            Optional<Instant> oldest = store.oldestAfter(cursor.acknowledged());
            if (oldest.isPresent()) {
                Instant since = cursor.movedAt().filter(m -> m.isAfter(oldest.get())).orElse(oldest.get());
                seconds = Math.max(0, Duration.between(since, Instant.now()).toMillis() / 1000.0);
            }
        }
        return new Lag(cursor.acknowledged(), head, rows, seconds);
    }
}
