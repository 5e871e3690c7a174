package dev.backplane.kernel.catalog;

import java.util.Arrays;
import java.util.Locale;

/**
 * A tenant's review status of a connector, with its wire name and the moves review allows: a staged (the default,
 * no review row) or disabled connector may be enabled; only an enabled one may be disabled; nothing goes back to
 * staged. Only an enabled connector's enabled operations are dispatchable.
 */
public enum ReviewStatus {
    STAGED,
    ENABLED,
    DISABLED;

    /** The lower-case spelling stored in {@code catalog_connector_reviews.status} and shown on every surface. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The status with this wire name. */
    static ReviewStatus of(String wireName) {
        return Arrays.stream(values()).filter(s -> s.wireName().equals(wireName)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no review status '" + wireName + "'"));
    }

    /** Whether review may move a connector from this status to {@code next} (a status is no move to itself). */
    boolean canMoveTo(ReviewStatus next) {
        return switch (next) {
            case ENABLED -> this != ENABLED;
            case DISABLED -> this == ENABLED;
            case STAGED -> false;
        };
    }

    /** Whether the connector's enabled operations may be dispatched. */
    boolean dispatchable() {
        return this == ENABLED;
    }
}
