package dev.backplane.kernel.util;

import dev.backplane.kernel.errors.DomainException;
import java.time.Instant;
import java.util.Map;

/**
 * The range of times any request may carry: PostgreSQL's timestamptz cannot hold every instant Java
 * can parse ({@code +1000000-01-01T00:00:00Z} used to surface as a 500 from the database), and no
 * expiry, cursor or filter of this system means anything outside it.
 */
public final class Times {

    public static final Instant EARLIEST = Instant.parse("1970-01-01T00:00:00Z");
    public static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");

    private Times() {
    }

    /** {@code at}, or 422 {@code code} naming the field and the range. */
    public static Instant inRange(Instant at, String field, String code) {
        if (at.isBefore(EARLIEST) || at.isAfter(LATEST)) {
            throw DomainException.unprocessable(code, field + " must lie between " + EARLIEST + " and " + LATEST
                    + ", got " + at, Map.of("field", field));
        }
        return at;
    }
}
