package dev.backplane.kernel.audit.stream;

import dev.backplane.kernel.audit.integrity.AuditRecord;
import dev.backplane.kernel.persistence.Jdbc;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The SIEM stream's SQL: chained audit rows in {@code chain_pos} order after a position, and each sink's durable
 * cursor ({@code audit_stream_cursors}). A sink has two rows there: {@code <sink>} is how far the receiver has
 * acknowledged (the stream resumes after it), {@code <sink>.sent} the highest position ever handed to the
 * receiver (a row at or below it may have reached the receiver before, so it goes out marked as redelivered).
 */
final class AuditStreamStore {

    /**
     * Where a sink stands.
     *
     * @param acknowledged the last position the receiver acknowledged
     * @param sent the highest position ever sent (at least {@code acknowledged})
     * @param movedAt when the receiver last acknowledged (empty: never)
     */
    record Cursor(long acknowledged, long sent, Optional<Instant> movedAt) {
    }

    /**
     * The newest chained row.
     *
     * @param position its chain_pos (0: nothing chained yet)
     */
    record Head(long position) {
    }

    private final Jdbc jdbc;

    AuditStreamStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** Up to {@code limit} chained rows after {@code position}, in chain order. */
    List<AuditRecord> after(long position, int limit) {
        return jdbc.query("SELECT " + AuditRecord.COLUMNS + " FROM " + AuditRecord.LINKED + " WHERE l.pos > ? ORDER BY l.pos "
                + "LIMIT ?", AuditRecord::read, position, limit);
    }

    /** When the oldest row after {@code position} happened (empty: the sink is caught up). */
    Optional<Instant> oldestAfter(long position) {
        return jdbc.queryOne("SELECT occurred_at FROM audit_links WHERE pos > ? ORDER BY pos LIMIT 1",
                rs -> rs.getTimestamp(1).toInstant(), position);
    }

    Head head() {
        return jdbc.queryOne("SELECT coalesce(max(pos), 0) FROM audit_links",
                rs -> new Head(rs.getLong(1))).orElse(new Head(0));
    }

    Cursor cursor(String sink) {
        return jdbc.queryOne("SELECT coalesce(max(position) FILTER (WHERE sink = ?), 0), "
                + "coalesce(max(position) FILTER (WHERE sink = ?), 0), max(updated_at) FILTER (WHERE sink = ?) "
                + "FROM audit_stream_cursors WHERE sink IN (?, ?)", rs -> {
                    java.sql.Timestamp moved = rs.getTimestamp(3);
                    return new Cursor(rs.getLong(1), Math.max(rs.getLong(1), rs.getLong(2)),
                            Optional.ofNullable(moved).map(java.sql.Timestamp::toInstant));
                }, sink, sink + ".sent", sink, sink, sink + ".sent").orElseThrow();
    }

    /** Records that the rows up to {@code position} were acknowledged; a cursor never moves back. */
    void acknowledge(String sink, long position) {
        move(sink, position);
    }

    /**
     * Records, before they go out, that the rows up to {@code position} are being sent, and returns the mark as it
     * was: a row at or below it may have been sent before. One transaction, the mark's row locked, so of two runs that
     * overlap (a replica taken for dead while still sending) the second sees the first's mark.
     */
    long sending(String sink, long position) {
        String key = sink + ".sent";
        return jdbc.inTransaction(c -> {
            Jdbc.update(c, "INSERT INTO audit_stream_cursors (sink, position) VALUES (?, 0) ON CONFLICT (sink) DO NOTHING",
                    key);
            long before = Jdbc.query(c, "SELECT position FROM audit_stream_cursors WHERE sink = ? FOR UPDATE",
                    rs -> rs.getLong(1), key).getFirst();
            Jdbc.update(c, "UPDATE audit_stream_cursors SET position = greatest(position, ?), updated_at = now() "
                    + "WHERE sink = ?", position, key);
            return before;
        });
    }

    private void move(String key, long position) {
        jdbc.update("INSERT INTO audit_stream_cursors (sink, position) VALUES (?, ?) ON CONFLICT (sink) DO UPDATE "
                + "SET position = greatest(audit_stream_cursors.position, excluded.position), updated_at = now()",
                key, position);
    }
}
