package dev.backplane.kernel.broadcast;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * One stored activity event as the feed shows it ({@code broadcast recent}, the SSE stream). {@code id}
 * is the stream id: increasing, the SSE {@code id:} and what {@code Last-Event-ID} and a cursor name.
 * Fields that do not apply to the event's kind are left out of the JSON.
 *
 * @param active announcements only: the claim is still open (no later phase, not expired)
 * @param count aggregates only: how many events the window collapsed, with {@code statuses} per outcome
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record BroadcastEvent(long id, @JsonIgnore UUID tenantId, Instant at, String kind, String activity,
                             Optional<String> phase, Optional<String> opClass, Optional<String> connectorId,
                             Optional<String> opId, Optional<String> target, List<String> targets,
                             Optional<String> namespace, String principal, Optional<String> principalKind,
                             String actorSub, Optional<String> status, Optional<String> errorCode,
                             Optional<Long> durationMs, Optional<String> workRef, Optional<String> runId,
                             Optional<String> scope, Optional<Instant> expiresAt, Optional<Boolean> active,
                             Optional<Integer> count, Optional<Instant> windowStart, Optional<Instant> windowEnd,
                             Optional<Map<String, Object>> statuses, List<String> principals) {

    static final String COLUMNS = "id, tenant_id, at, kind, activity, phase, op_class, connector_id, op_id, target, targets, "
            + "namespace, principal, principal_kind, actor_sub, status, error_code, duration_ms, work_ref, run_id, scope, "
            + "expires_at, closed_at, event_count, window_start, window_end, statuses, principals";

    /** Reads a row selected with {@link #COLUMNS}. */
    static BroadcastEvent read(ResultSet rs) throws SQLException {
        String kind = rs.getString("kind");
        Optional<Instant> expires = instant(rs, "expires_at");
        boolean announcement = kind.equals(Activity.Kind.ANNOUNCEMENT.wireName());
        Optional<Boolean> active = announcement ? Optional.of(rs.getTimestamp("closed_at") == null
                && expires.map(e -> e.isAfter(Instant.now())).orElse(false)) : Optional.empty();
        long duration = rs.getLong("duration_ms");
        Optional<Long> durationMs = rs.wasNull() ? Optional.empty() : Optional.of(duration);
        int n = rs.getInt("event_count");
        Optional<Integer> count = rs.wasNull() ? Optional.empty() : Optional.of(n);
        return new BroadcastEvent(rs.getLong("id"), rs.getObject("tenant_id", UUID.class),
                rs.getTimestamp("at").toInstant(), kind, rs.getString("activity"), text(rs, "phase"), text(rs, "op_class"),
                text(rs, "connector_id"), text(rs, "op_id"), text(rs, "target"), list(rs.getArray("targets")),
                text(rs, "namespace"), rs.getString("principal"), text(rs, "principal_kind"), rs.getString("actor_sub"),
                text(rs, "status"), text(rs, "error_code"), durationMs, text(rs, "work_ref"), text(rs, "run_id"),
                text(rs, "scope"), expires, active, count, instant(rs, "window_start"), instant(rs, "window_end"),
                rs.getString("statuses") == null ? Optional.empty() : Optional.of(Jdbc.jsonObject(rs, "statuses")),
                list(rs.getArray("principals")));
    }

    /** An announcement's planned op class (its {@code op_class}, by which the feed filters it too). */
    public Optional<String> plannedOpClass() {
        return kind.equals(Activity.Kind.ANNOUNCEMENT.wireName()) ? opClass : Optional.empty();
    }

    /** Whether the event names {@code name} as its target or among its targets. */
    boolean names(String name) {
        return target.map(name::equals).orElse(false) || targets.contains(name);
    }

    private static Optional<String> text(ResultSet rs, String column) throws SQLException {
        return Optional.ofNullable(rs.getString(column));
    }

    private static Optional<Instant> instant(ResultSet rs, String column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? Optional.empty() : Optional.of(t.toInstant());
    }

    private static List<String> list(Array array) throws SQLException {
        return array == null ? List.of() : List.of((String[]) array.getArray());
    }
}
