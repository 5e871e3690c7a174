package dev.backplane.kernel.events;

import dev.backplane.kernel.persistence.Jdbc;
import java.util.UUID;

/**
 * SQL for the per-source token buckets of ingest ({@code event_rate_buckets}): one statement takes tokens when they
 * are there, refilling from the stored level and time on the database's clock; a refused take changes nothing.
 */
final class RateBucketStore {

    private static final String REFILLED = "least(?::float8, b.tokens + greatest(0, extract(epoch FROM "
            + "statement_timestamp() - b.refilled_at))::float8 * ?::float8)";
    private static final String TAKE = """
            INSERT INTO event_rate_buckets AS b (source_id, tokens, refilled_at)
            VALUES (?, ?::float8 - ?::float8, statement_timestamp())
            ON CONFLICT (source_id) DO UPDATE
               SET tokens = %1$s - ?::float8, refilled_at = greatest(b.refilled_at, statement_timestamp())
             WHERE %1$s >= ?::float8
            RETURNING tokens""".formatted(REFILLED);

    private final Jdbc jdbc;

    RateBucketStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Whether {@code count} tokens of {@code source}'s bucket (holding up to {@code burst}, refilling {@code rate}/s)
     * were taken: all of them, or none when fewer are there (at most {@code burst}).
     */
    boolean take(UUID source, long burst, long rate, int count) {
        double n = count;
        return jdbc.queryOne(TAKE, rs -> true, source, (double) burst, n, (double) burst, (double) rate, n,
                (double) burst, (double) rate, n).isPresent();
    }
}
