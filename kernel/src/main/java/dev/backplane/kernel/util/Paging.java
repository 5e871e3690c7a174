package dev.backplane.kernel.util;

import dev.backplane.kernel.errors.CommonErrors;
import java.util.Map;

/**
 * A checked {@code limit}/{@code offset} page of a list route: {@code 422 invalid_limit} outside
 * 1..max, {@code 422 invalid_offset} below 0.
 */
public record Paging(int limit, int offset) {

    /** A list's page size: the default when the caller asks for none, and the largest allowed. */
    public record Size(int fallback, int max) {

        /** {@link Paging#checked} against this size's max. */
        public Paging checked(int limit, int offset) {
            return Paging.checked(limit, offset, max);
        }
    }

    public static Paging checked(int limit, int offset, int max) {
        if (limit < 1 || limit > max) {
            throw CommonErrors.INVALID_LIMIT.error("limit must be 1.." + max + ", got " + limit, Map.of("field", "limit"));
        }
        if (offset < 0) {
            throw CommonErrors.INVALID_OFFSET.error("offset must not be negative, got " + offset,
                    Map.of("field", "offset"));
        }
        return new Paging(limit, offset);
    }
}
