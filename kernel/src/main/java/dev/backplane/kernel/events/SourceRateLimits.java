package dev.backplane.kernel.events;

import dev.backplane.kernel.persistence.Jdbc;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Ingest's per-source rate limit, shared by every replica of the database: a token bucket per source
 * refilling {@code extras.rate_per_second} (default: the {@code events.rate-per-second} setting) up to
 * {@code extras.burst} (default twice the rate), kept in {@code event_rate_buckets}. A delivery over it
 * answers 429 with Retry-After.
 *
 * <p>One statement per delivery, or per {@link #ahead} deliveries of a busy source ({@link RateBucketStore}): the
 * refill is computed in PostgreSQL from the stored level and time (the database's clock, so replicas' clocks do not
 * matter), and tokens are taken only when they are there ({@code DO UPDATE ... WHERE}); a refused delivery changes
 * nothing and returns no row. Concurrent deliveries of one source queue on its row for the statement's length only. Chosen
 * over Bucket4j's PostgreSQL backend, which takes a transaction with {@code SELECT ... FOR UPDATE} and
 * an {@code UPDATE} (four round trips) per check and is one more dependency, on a path with a budget
 * of 2,000 accepted events/s on two cores.
 */
final class SourceRateLimits {

    /** Most tokens taken ahead at once. */
    static final int MAX_AHEAD = 64;

    private final RateBucketStore buckets;
    private final long defaultRate;
    private final Map<UUID, Ahead> ahead = new ConcurrentHashMap<>();

    /** Tokens this replica took from a source's bucket for deliveries still to come. */
    private static final class Ahead {
        final ReentrantLock lock = new ReentrantLock();
        int tokens;
    }

    SourceRateLimits(Jdbc jdbc, long defaultRatePerSecond) {
        this.buckets = new RateBucketStore(jdbc);
        this.defaultRate = defaultRatePerSecond;
    }

    /**
     * Tokens taken from the bucket at once: 10 ms of the source's rate (1 up to 199/s, at most {@value #MAX_AHEAD}),
     * so a busy source costs one statement per that many deliveries instead of one each. A replica's tokens taken
     * ahead are gone from the shared bucket, so together the replicas never accept more than the limit; what a
     * replica holds unused only makes its source's limit a little stricter.
     */
    static int ahead(long rate) {
        return (int) Math.clamp(rate / 100, 1, MAX_AHEAD);
    }

    /** Takes one token of the source's bucket, or refuses the delivery with {@code rate_limited}. */
    void take(EventSource s) {
        long rate = Math.max(1, s.number("rate_per_second", defaultRate));
        long burst = Math.max(1, s.number("burst", rate * 2));
        boolean taken;
        try {
            taken = take(s.id(), burst, rate);
        } catch (Jdbc.DataAccessException e) {
            throw EventErrors.EVENT_LOG_UNAVAILABLE.error("the event could not be stored; nothing was accepted, "
                    + "retry later").withHeaders(Map.of("Retry-After", "5"));
        }
        if (!taken) {
            // the bucket holds less than one token and refills at least one a second: there is one within 1 s
            throw EventErrors.RATE_LIMITED.error("this source is over its rate limit ("
                    + rate + "/s); retry later").withHeaders(Map.of("Retry-After", "1"));
        }
    }

    private boolean take(UUID source, long burst, long rate) {
        int batch = (int) Math.min(ahead(rate), burst);
        if (batch == 1) {
            return buckets.take(source, burst, rate, 1);
        }
        Ahead held = ahead.computeIfAbsent(source, k -> new Ahead());
        held.lock.lock(); // a source's deliveries would queue on its bucket row anyway; here only per batch
        try {
            if (held.tokens > 0) {
                held.tokens--;
                return true;
            }
            if (buckets.take(source, burst, rate, batch)) {
                held.tokens = batch - 1;
                return true;
            }
            return buckets.take(source, burst, rate, 1); // near the limit: one at a time
        } finally {
            held.lock.unlock();
        }
    }
}
