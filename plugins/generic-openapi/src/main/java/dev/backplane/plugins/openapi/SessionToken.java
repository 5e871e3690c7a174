package dev.backplane.plugins.openapi;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * A session or access token obtained from the vendor, and when this engine stops using it.
 *
 * @param value the token text (a secret: never shown)
 * @param usableUntil the instant after which the token is obtained again
 */
record SessionToken(String value, Instant usableUntil) {

    SessionToken {
        requireNonNull(value, "value is null");
        requireNonNull(usableUntil, "usableUntil is null");
    }

    boolean usableAt(Instant now) {
        return now.isBefore(usableUntil);
    }

    /**
     * How long a token that the vendor says lives {@code ttlSeconds} is used: until about 30 s before it
     * expires, and never more than half its life early (so short-lived tokens are still reused).
     */
    static long usableSeconds(long ttlSeconds) {
        return Math.max(ttlSeconds - 30, ttlSeconds / 2);
    }

    @Override
    public String toString() {
        return "SessionToken[value=(redacted), usableUntil=" + usableUntil + "]";
    }
}
