package dev.backplane.kernel.events;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

/**
 * Ingest's per-source rate limit on this replica: a token bucket per source refilling
 * {@code extras.rate_per_second} (default: the {@code events.rate-per-second} setting) up to
 * {@code extras.burst} (default twice the rate). A delivery over it answers 429 with Retry-After.
 */
final class SourceRateLimits {

    private final long defaultRate;
    private final Cache<UUID, TokenBucket> buckets = Caffeine.newBuilder().maximumSize(100_000)
            .expireAfterAccess(Duration.ofMinutes(10)).build();

    SourceRateLimits(long defaultRatePerSecond) {
        this.defaultRate = defaultRatePerSecond;
    }

    /** Takes one token of the source's bucket, or refuses the delivery with {@code rate_limited}. */
    void take(EventSource s) {
        long rate = s.number("rate_per_second", defaultRate);
        long burst = s.number("burst", Math.max(rate, 1) * 2);
        TokenBucket bucket = buckets.get(s.id(), id -> new TokenBucket(rate, burst));
        long waitMs = bucket.take(rate, burst);
        if (waitMs > 0) {
            throw EventErrors.RATE_LIMITED.error("this source is over its rate limit ("
                    + rate + "/s); retry later").withHeaders(Map.of("Retry-After",
                    String.valueOf(Math.max(1, (waitMs + 999) / 1000))));
        }
    }

    /** A per-source token bucket on this replica (refill {@code rate}/s up to {@code burst}). */
    static final class TokenBucket {
        private double tokens;
        private long last = System.nanoTime();

        TokenBucket(long rate, long burst) {
            this.tokens = burst;
        }

        /** Takes one token; returns 0, or how many milliseconds until one is there. */
        synchronized long take(long rate, long burst) {
            long now = System.nanoTime();
            tokens = Math.min(burst, tokens + (now - last) / 1e9 * rate);
            last = now;
            if (tokens >= 1) {
                tokens -= 1;
                return 0;
            }
            return (long) Math.ceil((1 - tokens) / rate * 1000);
        }
    }
}
