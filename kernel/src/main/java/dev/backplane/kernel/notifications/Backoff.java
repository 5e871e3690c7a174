package dev.backplane.kernel.notifications;

import java.time.Duration;

/**
 * How long a failed delivery waits before its next attempt: {@code initial} after the first failure, doubling after
 * each further one, never more than {@code max}.
 */
public record Backoff(Duration initial, Duration max) {

    public Backoff {
        if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("a backoff needs 0 < initial <= max, got " + initial + " and " + max);
        }
    }

    /** The wait after the {@code attempt}-th failed attempt (1 for the first). */
    public Duration after(int attempt) {
        int doublings = Math.max(0, Math.min(attempt - 1, 30));
        long millis = initial.toMillis() << doublings;
        return millis <= 0 || millis > max.toMillis() ? max : Duration.ofMillis(millis);
    }
}
