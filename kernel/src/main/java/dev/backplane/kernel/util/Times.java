package dev.backplane.kernel.util;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.errors.ErrorCode;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;

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

    /** An ISO 8601 time with an offset, or an instant as {@link Instant#parse} reads it; empty when it is neither. */
    public static Optional<Instant> iso(String text) {
        try {
            return Optional.of(OffsetDateTime.parse(text).toInstant());
        } catch (DateTimeParseException e) {
            try {
                return Optional.of(Instant.parse(text));
            } catch (DateTimeParseException e2) {
                return Optional.empty();
            }
        }
    }

    /** The zone {@code time_zone} names (such as UTC or Europe/Berlin), or {@code invalid} naming the field. */
    public static ZoneId zone(String zone, ErrorCode invalid) {
        try {
            return ZoneId.of(zone);
        } catch (DateTimeException e) {
            throw invalid.error("time_zone must be a zone id such as UTC or Europe/Berlin, got '" + zone + "'",
                    Map.of("field", "time_zone"));
        }
    }
}
