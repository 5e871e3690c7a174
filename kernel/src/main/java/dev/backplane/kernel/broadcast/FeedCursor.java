package dev.backplane.kernel.broadcast;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.util.TimeArg;
import java.time.Instant;
import java.util.Map;

/**
 * Where a page of {@code broadcast recent} starts (exclusive): before a stream id (a {@code next_cursor})
 * or before a time.
 */
sealed interface FeedCursor {

    /** Events with a smaller stream id. */
    record BeforeId(long id) implements FeedCursor {
    }

    /** Events that happened before {@code at}. */
    record BeforeTime(Instant at) implements FeedCursor {
    }

    /** Reads a cursor: up to 18 digits is a stream id, anything else must be an ISO 8601 time (or {@link TimeArg}). */
    static FeedCursor parse(String text) {
        String cur = text.trim();
        if (cur.matches("\\d{1,18}")) {
            return new BeforeId(Long.parseLong(cur));
        }
        try {
            return new BeforeTime(TimeArg.parse(cur, "cursor"));
        } catch (DomainException e) {
            throw CommonErrors.INVALID_CURSOR.error("cursor must be a stream id (a next_cursor) or an ISO 8601 "
                    + "time, got '" + cur + "'", Map.of("field", "cursor"));
        }
    }
}
