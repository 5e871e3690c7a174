package dev.backplane.kernel.events;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;

/**
 * The server-side record of refused deliveries (SPEC: the reason is logged, never sent): the first
 * refusal of a source is logged at once, then at most one line per source every 10 s with the count,
 * so a flood of bad deliveries cannot turn into a flood of log writes.
 */
final class RefusalLog {
    /** Under ingest's logger name, where operators look for refused deliveries. */
    private static final System.Logger LOG = System.getLogger(EventIngest.class.getName());
    private static final long QUIET_NANOS = 10_000_000_000L;
    private final Cache<String, long[]> last = Caffeine.newBuilder().maximumSize(10_000)
            .expireAfterAccess(Duration.ofMinutes(5)).build();

    void note(String slug, String reason) {
        long now = System.nanoTime();
        long[] state = last.get(slug, k -> new long[] {now - QUIET_NANOS, 0});
        long suppressed;
        synchronized (state) {
            state[1]++;
            if (now - state[0] < QUIET_NANOS) {
                return;
            }
            suppressed = state[1] - 1;
            state[0] = now;
            state[1] = 0;
        }
        LOG.log(System.Logger.Level.INFO, "event source " + slug + ": delivery refused: " + reason
                + (suppressed > 0 ? " (and " + suppressed + " more refusals in the last 10 s)" : ""));
    }
}
