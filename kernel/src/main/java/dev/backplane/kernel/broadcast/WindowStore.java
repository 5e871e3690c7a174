package dev.backplane.kernel.broadcast;

import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.List;
import java.util.UUID;

/**
 * SQL for the aggregation windows ({@code broadcast_windows}, shared by all replicas): calls of an
 * aggregating override are counted into their window row, and a closed window becomes one event.
 */
final class WindowStore {

    private static final int MAX_PRINCIPALS_PER_WINDOW = 20;

    /** One call counted into the window of the aggregating override {@code overrideId}, keyed on {@code scopeValue}. */
    record WindowCount(Activity activity, UUID overrideId, String scopeValue) {
    }

    private final Jdbc jdbc;

    WindowStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    private static final String WINDOW_UPSERT = """
            INSERT INTO broadcast_windows AS w (tenant_id, override_id, connector_id, op_id, op_class, scope_value,
                   window_start, last_at, event_count, statuses, principals, targets)
            VALUES (?, ?, ?, ?, ?, ?, to_timestamp(floor(extract(epoch FROM ?::timestamptz) / ?) * ?), ?, 1,
                    jsonb_build_object(?::text, 1), ARRAY[?::text], ARRAY[?::text])
            ON CONFLICT (tenant_id, override_id, connector_id, op_id, scope_value, window_start) DO UPDATE SET
                   event_count = w.event_count + 1,
                   last_at = greatest(w.last_at, EXCLUDED.last_at),
                   statuses = w.statuses || (SELECT jsonb_object_agg(k, coalesce((w.statuses ->> k)::int, 0) + v::int)
                                             FROM jsonb_each_text(EXCLUDED.statuses) AS e (k, v)),
                   principals = CASE WHEN EXCLUDED.principals[1] = ANY (w.principals)
                                       OR cardinality(w.principals) >= %d THEN w.principals
                                     ELSE w.principals || EXCLUDED.principals END,
                   targets = CASE WHEN EXCLUDED.targets[1] = ANY (w.targets)
                                    OR cardinality(w.targets) >= %d THEN w.targets
                                  ELSE w.targets || EXCLUDED.targets END""".formatted(MAX_PRINCIPALS_PER_WINDOW,
            MAX_PRINCIPALS_PER_WINDOW);

    /** Counts each call into its window of {@code windowSeconds} (one batch of upserts). */
    static void countIntoWindows(Connection c, List<WindowCount> counts, long windowSeconds) throws SQLException {
        if (counts.isEmpty()) {
            return;
        }
        try (PreparedStatement counted = c.prepareStatement(WINDOW_UPSERT)) {
            for (WindowCount w : counts) {
                Activity a = w.activity();
                counted.setObject(1, a.tenantId());
                counted.setObject(2, w.overrideId());
                counted.setString(3, a.connectorId().orElse(""));
                counted.setString(4, a.opId().orElse(""));
                counted.setString(5, a.opClass().orElse(null));
                counted.setString(6, w.scopeValue());
                counted.setTimestamp(7, Timestamp.from(a.at()));
                counted.setLong(8, windowSeconds);
                counted.setLong(9, windowSeconds);
                counted.setTimestamp(10, Timestamp.from(a.at()));
                counted.setString(11, a.status().orElse("unknown"));
                counted.setString(12, a.principal());
                counted.setString(13, a.target().orElse(""));
                counted.addBatch();
            }
            counted.executeBatch();
        }
    }

    /**
     * Turns every window that started {@code closeAfterSeconds} ago or earlier into one {@code aggregate}
     * event, deleting its row in the same transaction (so each window once, on any replica). Returns how many.
     */
    int flushClosedWindows(double closeAfterSeconds, double windowSeconds) {
        return jdbc.inTransaction(c -> {
            BroadcastStore.lockTenants(c, Jdbc.query(c, "SELECT DISTINCT tenant_id FROM broadcast_windows WHERE window_start "
                    + "+ make_interval(secs => ?) <= now()", rs -> rs.getObject(1, UUID.class), closeAfterSeconds));
            List<Long> ids = Jdbc.query(c, """
                    WITH closed AS (
                        DELETE FROM broadcast_windows WHERE window_start + make_interval(secs => ?) <= now()
                        RETURNING *)
                    INSERT INTO broadcast_events (tenant_id, at, kind, activity, op_class, connector_id, op_id, target,
                           targets, namespace, principal, actor_sub, event_count, window_start, window_end, statuses,
                           principals)
                    SELECT w.tenant_id, w.last_at, 'aggregate',
                           w.event_count || ' × call ' || w.connector_id || '/' || w.op_id, w.op_class, w.connector_id,
                           w.op_id, CASE WHEN cardinality(array_remove(w.targets, '')) = 1 THEN w.targets[1] END,
                           array_remove(w.targets, ''), CASE WHEN o.scope_field = 'namespace' THEN w.scope_value END,
                           w.principals[1], w.principals[1], w.event_count, w.window_start,
                           w.window_start + make_interval(secs => ?), w.statuses, w.principals
                    FROM closed w LEFT JOIN broadcast_overrides o ON o.id = w.override_id
                    RETURNING id""", rs -> rs.getLong(1), closeAfterSeconds, windowSeconds);
            if (!ids.isEmpty()) {
                long min = ids.stream().mapToLong(Long::longValue).min().getAsLong();
                long max = ids.stream().mapToLong(Long::longValue).max().getAsLong();
                ChangeFeed.notifyOnCommit(c, BroadcastStore.TOPIC, min + "-" + max);
            }
            return ids.size();
        });
    }
}
