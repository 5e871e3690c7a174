package dev.backplane.kernel.events;

import dev.backplane.kernel.persistence.Jdbc;
import java.util.UUID;

/**
 * SQL for the per-source token buckets of ingest ({@code event_rate_buckets}): one statement takes a token when one
 * is there, refilling from the stored level and time on the database's clock; a refused take changes nothing.
 *
 * <p>The statement's commit does not wait for the disk ({@code synchronous_commit} off for its own transaction, as
 * set_config(..., true) is SET LOCAL). Every delivery of a source updates the source's one row, and a row lock is held
 * until commit: with a flushed commit the source's deliveries queued behind each other's disk flush, one at a time,
 * which capped a source at one delivery per flush (about 1,650/s here, p50 0.5 s at 2,000/s offered). A token taken and
 * lost to a crash before the next flush is harmless: the bucket is a little fuller than it should be. The event row
 * that follows is committed with a flush, as before, and that flush carries the bucket's change with it.
 */
final class RateBucketStore {

    private static final String REFILLED = "least(?::float8, b.tokens + greatest(0, extract(epoch FROM "
            + "statement_timestamp() - b.refilled_at))::float8 * ?::float8)";
    private static final String TAKE = """
            INSERT INTO event_rate_buckets AS b (source_id, tokens, refilled_at)
            SELECT ?, ?::float8 - 1, statement_timestamp() FROM (SELECT set_config('synchronous_commit', 'off', true))
                AS no_flush_wait
            ON CONFLICT (source_id) DO UPDATE
               SET tokens = %1$s - 1, refilled_at = greatest(b.refilled_at, statement_timestamp())
             WHERE %1$s >= 1
            RETURNING tokens""".formatted(REFILLED);

    private final Jdbc jdbc;

    RateBucketStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** Whether a token of {@code source}'s bucket (holding up to {@code burst}, refilling {@code rate}/s) was taken. */
    boolean take(UUID source, long burst, long rate) {
        return jdbc.queryOne(TAKE, rs -> true, source, (double) burst, (double) burst, (double) rate, (double) burst,
                (double) rate).isPresent();
    }
}
