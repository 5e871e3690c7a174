package dev.backplane.kernel.events;

import dev.backplane.kernel.persistence.Jdbc;
import java.util.Map;

/**
 * Ingest's per-source rate limit, shared by every replica of the database: a token bucket per source
 * refilling {@code extras.rate_per_second} (default: the {@code events.rate-per-second} setting) up to
 * {@code extras.burst} (default twice the rate), kept in {@code event_rate_buckets}. A delivery over it
 * answers 429 with Retry-After.
 *
 * <p>One statement per delivery, one round trip ({@link RateBucketStore}): the refill is computed in PostgreSQL from the stored
 * level and time (the database's clock, so replicas' clocks do not matter), and a token is taken only
 * when one is there ({@code DO UPDATE ... WHERE}); a refused delivery changes nothing and returns no
 * row. Concurrent deliveries of one source queue on its row for the statement's length only. Chosen
 * over Bucket4j's PostgreSQL backend, which takes a transaction with {@code SELECT ... FOR UPDATE} and
 * an {@code UPDATE} (four round trips) per check and is one more dependency, on a path with a budget
 * of 2,000 accepted events/s on two cores.
 */
final class SourceRateLimits {

    private final RateBucketStore buckets;
    private final long defaultRate;

    SourceRateLimits(Jdbc jdbc, long defaultRatePerSecond) {
        this.buckets = new RateBucketStore(jdbc);
        this.defaultRate = defaultRatePerSecond;
    }

    /** Takes one token of the source's bucket, or refuses the delivery with {@code rate_limited}. */
    void take(EventSource s) {
        long rate = Math.max(1, s.number("rate_per_second", defaultRate));
        long burst = Math.max(1, s.number("burst", rate * 2));
        boolean taken;
        try {
            taken = buckets.take(s.id(), burst, rate);
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
}
