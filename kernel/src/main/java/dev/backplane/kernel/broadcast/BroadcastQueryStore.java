package dev.backplane.kernel.broadcast;

import dev.backplane.kernel.persistence.FilteredSelect;
import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The reading SQL of the feed's events ({@code broadcast_events}): pages of recent events, a stream's resume,
 * what one commit notice announced, and the counts of a summary. No rules; writes are {@link BroadcastStore}'s.
 */
final class BroadcastQueryStore {

    /** One row of a summary: events of a kind with one outcome (status, else phase, else {@code -}). */
    record OutcomeCount(String kind, String outcome, long count) {
    }

    private final Jdbc jdbc;

    BroadcastQueryStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** Events of the tenant matching {@code f} before {@code cursor}, newest first. */
    List<BroadcastEvent> recent(UUID tenant, BroadcastFilter f, Optional<FeedCursor> cursor, int limit) {
        FilteredSelect select = new FilteredSelect("SELECT " + BroadcastEvent.COLUMNS
                + " FROM broadcast_events WHERE tenant_id = ?", tenant);
        cursor.ifPresent(cur -> {
            switch (cur) {
                case FeedCursor.BeforeId b -> select.append(" AND id < ?", b.id());
                case FeedCursor.BeforeTime b -> select.append(" AND at < ?", Timestamp.from(b.at()));
            }
        });
        return filter(select, f).append(" ORDER BY id DESC LIMIT ?", limit).query(jdbc, BroadcastEvent::read);
    }

    /** Events of the tenant matching {@code f} after stream id {@code after}, oldest first. */
    List<BroadcastEvent> after(UUID tenant, BroadcastFilter f, long after, int limit) {
        FilteredSelect select = new FilteredSelect("SELECT " + BroadcastEvent.COLUMNS
                + " FROM broadcast_events WHERE tenant_id = ? AND id > ?", tenant, after);
        return filter(select, f).append(" ORDER BY id LIMIT ?", limit).query(jdbc, BroadcastEvent::read);
    }

    private static FilteredSelect filter(FilteredSelect select, BroadcastFilter f) {
        return select.and("op_class = ?", f.opClass())
                .and("(principal = ? OR ? = ANY (principals))", f.principal())
                .and("(target = ? OR ? = ANY (targets))", f.target())
                .and("work_ref = ?", f.workRef())
                .and("actor_sub = ?", f.actorSub())
                .andIf(f.activeOnly(), "kind = 'announcement' AND closed_at IS NULL AND expires_at > now()");
    }

    /** Events with stream ids {@code from..to} of these tenants, oldest first (what one notice announced). */
    List<BroadcastEvent> between(long from, long to, UUID[] tenants) {
        return jdbc.query("SELECT " + BroadcastEvent.COLUMNS + " FROM broadcast_events WHERE id BETWEEN ? AND ? "
                + "AND tenant_id = ANY (?) ORDER BY id", BroadcastEvent::read, from, to, tenants);
    }

    /** The tenant's newest stream id committed now ({@code 0} when it has none). */
    long newestId(UUID tenant) {
        return jdbc.queryOne("SELECT coalesce(max(id), 0) FROM broadcast_events WHERE tenant_id = ?",
                rs -> rs.getLong(1), tenant).orElse(0L);
    }

    /** Event counts per kind and outcome since {@code since}, ordered by kind, then outcome. */
    List<OutcomeCount> countsSince(UUID tenant, Instant since) {
        return jdbc.query("""
                SELECT kind, coalesce(status, phase, '-') AS outcome, sum(coalesce(event_count, 1)) AS n
                FROM broadcast_events WHERE tenant_id = ? AND at >= ? GROUP BY 1, 2 ORDER BY 1, 2""",
                rs -> new OutcomeCount(rs.getString("kind"), rs.getString("outcome"), rs.getLong("n")), tenant,
                Timestamp.from(since));
    }

    /** How many announcement claims of the tenant are open now (not closed, not expired). */
    long openClaims(UUID tenant) {
        return jdbc.queryOne("""
                SELECT count(*) FROM broadcast_events WHERE tenant_id = ? AND kind = 'announcement'
                AND closed_at IS NULL AND expires_at > now()""", rs -> rs.getLong(1), tenant).orElse(0L);
    }
}
