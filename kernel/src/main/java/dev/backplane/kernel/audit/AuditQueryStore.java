package dev.backplane.kernel.audit;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.backplane.kernel.audit.AuditQueries.Filter;
import dev.backplane.kernel.audit.AuditQueries.Row;
import dev.backplane.kernel.audit.integrity.ChainStore;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.kernel.util.TimeArg;
import dev.backplane.kernel.util.Times;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The audit log's reads: a filtered page, one row, a session's rows, who touched a target, the reflex counts.
 * Each starts from the tenant, so the tenant's indexes serve it (V050); a time window reads only its months.
 */
final class AuditQueryStore {

    /**
     * The columns a read selects. Rows are written bounded ({@link AuditExtras}); extras larger than twice that
     * bound (as PostgreSQL prints jsonb, with spaces) can only be rows written before the bound existed, and
     * are answered as a marker with their size, so no read pulls a huge row into the kernel's heap.
     */
    static final String COLUMNS = """
            id, occurred_at, principal, principal_kind, op_class, op_id, connector_id, target, result_status, error_code,
            duration_ms, session_id, parent_audit_id, work_ref, params_hash, approval_request_id,
            CASE WHEN octet_length(extras::text) <= %d THEN extras
                 ELSE jsonb_build_object('%s', jsonb_build_object('size_bytes', octet_length(extras::text),
                      'note', 'written before audit rows were bounded; not shown')) END AS extras"""
            .formatted(2 * AuditExtras.MAX_BYTES, AuditExtras.TRUNCATED);

    private final Jdbc jdbc;

    AuditQueryStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** Up to {@code limit} rows matching {@code f}, newest first, after the cursor's (time, id) when given. */
    List<Row> page(UUID tenant, Filter f, Optional<String[]> after, int limit) {
        StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM audit_rows WHERE tenant_id = ?");
        List<Object> p = new ArrayList<>(List.of(tenant));
        f.auditId().ifPresent(v -> add(sql, p, " AND id = ?", v));
        f.opClass().ifPresent(v -> add(sql, p, " AND op_class = ?", v));
        f.opIdGlob().ifPresent(v -> add(sql, p, " AND op_id LIKE ? ESCAPE '\\'", AuditQueries.globToLike(v)));
        f.parentAuditId().ifPresent(v -> add(sql, p, " AND parent_audit_id = ?", v));
        if (f.principal().isPresent()) {
            String[] matching = principalsLike(tenant, f.principal().get());
            if (matching.length == 0) {
                return List.of();
            }
            add(sql, p, " AND principal = ANY (?)", matching);
        }
        f.principalExact().ifPresent(v -> add(sql, p, " AND principal = ?", v));
        f.resultStatus().ifPresent(v -> add(sql, p, " AND result_status = ?", v));
        f.sessionId().ifPresent(v -> add(sql, p, " AND session_id = ?", v));
        f.since().ifPresent(v -> add(sql, p, " AND occurred_at >= ?", Timestamp.from(TimeArg.parse(v, "since"))));
        f.until().ifPresent(v -> add(sql, p, " AND occurred_at < ?", Timestamp.from(TimeArg.parse(v, "until"))));
        f.target().ifPresent(v -> add(sql, p, " AND target = ?", v));
        f.workRef().ifPresent(v -> add(sql, p, " AND work_ref = ?", v));
        after.ifPresent(parts -> {
            sql.append(" AND (occurred_at, id) < (?, ?)");
            p.add(Timestamp.from(Instant.parse(parts[0])));
            p.add(UUID.fromString(parts[1]));
        });
        sql.append(" ORDER BY occurred_at DESC, id DESC LIMIT ?");
        p.add(limit);
        return jdbc.query(sql.toString(), AuditQueryStore::row, p.toArray());
    }

    List<Row> connectorReviewTrail(UUID tenant, String connectorId, int limit) {
        return jdbc.query("SELECT " + COLUMNS + " " + """
                FROM audit_rows WHERE tenant_id = ? AND op_id LIKE 'svc.governance.% /api/v1/connectors/{connector_id}%'
                  AND extras -> 'path_parameters' ->> 'connector_id' = ? ORDER BY occurred_at DESC, id DESC LIMIT ?""",
                AuditQueryStore::row, tenant, connectorId, limit);
    }

    Optional<Row> show(UUID tenant, UUID id) {
        return jdbc.queryOne("SELECT " + COLUMNS + " FROM audit_rows WHERE tenant_id = ? AND id = ?", AuditQueryStore::row,
                tenant, id);
    }

    /**
     * The rows of one approval request in time order: the parked call, the decision, the released call's execution.
     * Read through the target's index from the request's creation on, so no scan of the tenant's log.
     */
    List<Row> approvalTrail(UUID tenant, UUID approvalId, String target, Instant createdAt, int limit) {
        return jdbc.query("SELECT " + COLUMNS + " FROM audit_rows WHERE tenant_id = ? AND target = ? "
                + "AND occurred_at >= ? AND approval_request_id = ? ORDER BY occurred_at, id LIMIT ?", AuditQueryStore::row,
                tenant, target, Timestamp.from(createdAt.minusSeconds(60)), approvalId, limit);
    }

    /** The preferred_username each of {@code subs} last signed in with, where one was seen. */
    Map<String, String> usernames(java.util.Collection<String> subs) {
        Map<String, String> names = new LinkedHashMap<>();
        if (!subs.isEmpty()) {
            jdbc.query("SELECT sub, username FROM tenancy_principal_names WHERE sub = ANY (?) AND username IS NOT NULL",
                    rs -> names.put(rs.getString(1), rs.getString(2)), (Object) subs.toArray(String[]::new));
        }
        return names;
    }

    /** A session's rows in time order. */
    List<Row> session(UUID tenant, UUID session) {
        return jdbc.query("SELECT " + COLUMNS + " FROM audit_rows WHERE tenant_id = ? AND session_id = ? "
                + "ORDER BY occurred_at, id", AuditQueryStore::row, tenant, session);
    }

    /**
     * The principals of the tenant's log whose name contains {@code part} (case-insensitive): from the chainer's list
     * (V051) and the rows not chained yet, so a substring match reads a short list, not every row.
     */
    private String[] principalsLike(UUID tenant, String part) {
        String like = "%" + AuditQueries.escapeLike(part) + "%";
        return afterWatermark((c, at, id) -> Jdbc.query(c, """
                SELECT principal FROM audit_principals WHERE tenant_id = ? AND principal ILIKE ? ESCAPE '\\'
                UNION
                SELECT principal FROM audit_rows WHERE (occurred_at, id) > (?, ?) AND tenant_id = ?
                   AND principal ILIKE ? ESCAPE '\\'""",
                rs -> rs.getString(1), tenant, like, at, id, tenant, like)).toArray(String[]::new);
    }

    /** A read of the rollups and of the rows after the chain watermark (the rows the rollups do not hold yet). */
    private interface AfterWatermark<T> {
        T read(java.sql.Connection c, Timestamp at, UUID id) throws SQLException;
    }

    /**
     * Runs {@code body} with the chain watermark, both in one snapshot (repeatable read), so a chainer run that
     * commits meanwhile neither adds rows to the rollups twice nor takes them from both.
     */
    private <T> T afterWatermark(AfterWatermark<T> body) {
        return jdbc.inTransaction(c -> {
            Jdbc.update(c, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
            Optional<ChainStore.Watermark> mark = ChainStore.watermark(c);
            return body.read(c, Timestamp.from(mark.map(ChainStore.Watermark::occurredAt).orElse(Times.EARLIEST)),
                    mark.map(ChainStore.Watermark::auditId).orElse(new UUID(0, 0)));
        });
    }

    /**
     * Who dispatched against a target: the chainer's per-target rollup (V051) plus the rows not chained yet, so the
     * answer costs the number of principals, not the target's history.
     */
    List<Map<String, Object>> whoTouched(UUID tenant, String target) {
        return afterWatermark((c, at, id) -> Jdbc.query(c, """
                SELECT x.principal, max(n.username) AS username, x.principal_kind, sum(x.calls) AS calls,
                       sum(x.writes) AS writes, max(x.last_at) AS last_at
                  FROM (SELECT principal, principal_kind, calls, writes, last_at FROM audit_target_principals
                         WHERE tenant_id = ? AND target = ?
                        UNION ALL
                        SELECT principal, principal_kind, count(*), count(*) FILTER (WHERE op_class = 'write'),
                               max(occurred_at) FROM audit_rows WHERE (occurred_at, id) > (?, ?) AND tenant_id = ?
                                  AND target = ?
                         GROUP BY 1, 2) x
                  LEFT JOIN tenancy_principal_names n ON n.sub = x.principal
                 GROUP BY x.principal, x.principal_kind ORDER BY last_at DESC""", rs -> {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("principal", rs.getString("principal"));
                    m.put("username", rs.getString("username")); // the sub's preferred_username, when one was seen
                    m.put("principal_kind", rs.getString("principal_kind"));
                    m.put("calls", rs.getLong("calls"));
                    m.put("writes", rs.getLong("writes"));
                    m.put("last_at", rs.getTimestamp("last_at").toInstant().toString());
                    return m;
                }, tenant, target, at, id, tenant, target));
    }

    private static final String WINDOW = " FROM audit_rows WHERE tenant_id = ? AND occurred_at >= ? AND occurred_at < ?";

    /** Rows per result status in the window. */
    Map<String, Long> outcomes(UUID tenant, Instant from, Instant to) {
        Map<String, Long> outcomes = new LinkedHashMap<>();
        jdbc.query("SELECT result_status, count(*)" + WINDOW + " GROUP BY 1 ORDER BY 1",
                rs -> outcomes.put(rs.getString(1), rs.getLong(2)), window(tenant, from, to));
        return outcomes;
    }

    /** Approval decisions in the window, by kind (approve, reject, ...). */
    Map<String, Long> approvals(UUID tenant, Instant from, Instant to) {
        Map<String, Long> approvals = new LinkedHashMap<>();
        jdbc.query("SELECT op_id, count(*)" + WINDOW + " AND op_id LIKE 'svc.approval.%' GROUP BY 1",
                rs -> approvals.put(rs.getString(1).substring("svc.approval.".length()), rs.getLong(2)),
                window(tenant, from, to));
        return approvals;
    }

    List<Map<String, Object>> topDenied(UUID tenant, Instant from, Instant to) {
        return top("SELECT op_id, count(*)" + WINDOW + " AND result_status = 'denied' GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10",
                window(tenant, from, to));
    }

    List<Map<String, Object>> topOperations(UUID tenant, Instant from, Instant to) {
        return top("SELECT op_id, count(*)" + WINDOW + " AND op_id NOT LIKE 'svc.%' GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10",
                window(tenant, from, to));
    }

    List<Map<String, Object>> topPrincipals(UUID tenant, Instant from, Instant to) {
        return top("SELECT principal, count(*)" + WINDOW + " GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10", window(tenant, from, to));
    }

    private List<Map<String, Object>> top(String sql, Object[] params) {
        return jdbc.query(sql, rs -> Map.<String, Object>of("name", rs.getString(1), "count", rs.getLong(2)), params);
    }

    private static Object[] window(UUID tenant, Instant from, Instant to) {
        return new Object[] {tenant, Timestamp.from(from), Timestamp.from(to)};
    }

    private static void add(StringBuilder sql, List<Object> params, String clause, Object value) {
        sql.append(clause);
        params.add(value);
    }

    static Row row(ResultSet rs) throws SQLException {
        Integer duration = (Integer) rs.getObject("duration_ms");
        Map<String, Object> extras;
        try {
            extras = JsonMapping.mapper().readValue(rs.getString("extras"), new TypeReference<LinkedHashMap<String, Object>>() { });
        } catch (Exception e) {
            extras = Map.of();
        }
        return new Row(rs.getObject("id", UUID.class), rs.getTimestamp("occurred_at").toInstant(), rs.getString("principal"),
                rs.getString("principal_kind"), rs.getString("op_class"), rs.getString("op_id"),
                Optional.ofNullable(rs.getString("connector_id")), Optional.ofNullable(rs.getString("target")),
                rs.getString("result_status"), Optional.ofNullable(rs.getString("error_code")), Optional.ofNullable(duration),
                Optional.ofNullable(rs.getObject("session_id", UUID.class)),
                Optional.ofNullable(rs.getObject("parent_audit_id", UUID.class)),
                Optional.ofNullable(rs.getString("work_ref")), Optional.ofNullable(rs.getString("params_hash")),
                Optional.ofNullable(rs.getObject("approval_request_id", UUID.class)), extras);
    }
}
