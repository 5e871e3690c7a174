package dev.backplane.kernel.audit;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.kernel.util.TimeArg;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/** Reading the audit log: query with filters and a cursor, show, replay a session, who touched a target, reflex. */
public final class AuditQueries {

    static final List<String> OP_CLASSES = AuditClass.WIRE_NAMES;
    static final Set<String> STATUSES = Set.of("started", "ok", "error", "denied", "awaiting_approval");

    /** One audit row as shown. */
    public record Row(UUID auditId, Instant occurredAt, String principal, String principalKind, String opClass,
                      String opId, Optional<String> connectorId, Optional<String> target, String resultStatus,
                      Optional<String> errorCode, Optional<Integer> durationMs, Optional<UUID> sessionId,
                      Optional<UUID> parentAuditId, Optional<String> workRef, Optional<String> paramsHash,
                      Optional<UUID> approvalRequestId, Map<String, Object> extras) {
    }

    /** A page of rows and the cursor to the next. */
    public record Page(List<Row> rows, Optional<String> nextCursor) {
    }

    /**
     * Query filters (all optional).
     *
     * @param opIdGlob shell glob on op_id ({@code k8s.pod.*})
     * @param principal partial, case-insensitive match on the subject
     */
    public record Filter(Optional<UUID> auditId, Optional<String> opClass, Optional<String> opIdGlob,
                         Optional<UUID> parentAuditId, Optional<String> principal, Optional<String> resultStatus,
                         Optional<UUID> sessionId, Optional<String> since, Optional<String> until,
                         Optional<String> target, Optional<String> workRef, Optional<String> principalExact) {
        public static Filter mine(String sub, Optional<String> since) {
            return new Filter(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.empty(), Optional.empty(), since, Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.of(sub));
        }
    }

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

    public AuditQueries(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    public Page query(UUID tenant, Filter f, Optional<String> cursor, int limit) {
        if (limit < 1 || limit > 1000) {
            throw CommonErrors.INVALID_LIMIT.error("limit must be 1..1000, got " + limit, Map.of("field", "limit"));
        }
        f.opClass().ifPresent(c -> check(OP_CLASSES.contains(c), "op_class must be one of " + OP_CLASSES));
        f.resultStatus().ifPresent(s -> check(STATUSES.contains(s), "result_status must be one of " + STATUSES));
        StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM audit_rows WHERE tenant_id = ?");
        List<Object> p = new ArrayList<>(List.of(tenant));
        f.auditId().ifPresent(v -> add(sql, p, " AND id = ?", v));
        f.opClass().ifPresent(v -> add(sql, p, " AND op_class = ?", v));
        f.opIdGlob().ifPresent(v -> add(sql, p, " AND op_id LIKE ? ESCAPE '\\'", globToLike(v)));
        f.parentAuditId().ifPresent(v -> add(sql, p, " AND parent_audit_id = ?", v));
        f.principal().ifPresent(v -> add(sql, p, " AND principal ILIKE ? ESCAPE '\\'", "%" + escapeLike(v) + "%"));
        f.principalExact().ifPresent(v -> add(sql, p, " AND principal = ?", v));
        f.resultStatus().ifPresent(v -> add(sql, p, " AND result_status = ?", v));
        f.sessionId().ifPresent(v -> add(sql, p, " AND session_id = ?", v));
        f.since().ifPresent(v -> add(sql, p, " AND occurred_at >= ?", Timestamp.from(TimeArg.parse(v, "since"))));
        f.until().ifPresent(v -> add(sql, p, " AND occurred_at < ?", Timestamp.from(TimeArg.parse(v, "until"))));
        f.target().ifPresent(v -> add(sql, p, " AND target = ?", v));
        f.workRef().ifPresent(v -> add(sql, p, " AND work_ref = ?", v));
        cursor.ifPresent(c -> {
            String[] parts = decodeCursor(c);
            sql.append(" AND (occurred_at, id) < (?, ?)");
            p.add(Timestamp.from(Instant.parse(parts[0])));
            p.add(UUID.fromString(parts[1]));
        });
        sql.append(" ORDER BY occurred_at DESC, id DESC LIMIT ?");
        p.add(limit + 1);
        List<Row> rows = jdbc.query(sql.toString(), AuditQueries::row, p.toArray());
        boolean more = rows.size() > limit;
        List<Row> page = more ? rows.subList(0, limit) : rows;
        Optional<String> next = more ? Optional.of(encodeCursor(page.getLast())) : Optional.empty();
        return new Page(List.copyOf(page), next);
    }

    /**
     * The governance rows of one connector's review in a tenant (enable, disable, enable-reads, operation and
     * group edits, whichever surface made them), newest first: the trail the console's connector page shows.
     */
    public List<Row> connectorReviewTrail(UUID tenant, String connectorId, int limit) {
        return jdbc.query("SELECT " + COLUMNS + " " + """
                FROM audit_rows WHERE tenant_id = ? AND op_id LIKE 'svc.governance.% /api/v1/connectors/{connector_id}%'
                  AND extras -> 'path_parameters' ->> 'connector_id' = ? ORDER BY occurred_at DESC, id DESC LIMIT ?""",
                AuditQueries::row, tenant, connectorId, limit);
    }

    public Row show(UUID tenant, UUID id) {
        return jdbc.queryOne("SELECT " + COLUMNS + " FROM audit_rows WHERE tenant_id = ? AND id = ?", AuditQueries::row, tenant, id)
                .orElseThrow(() -> notFound(id.toString()));
    }

    /** What an audit id answers when it is not a uuid or names no row of the tenant. */
    static DomainException notFound(String auditId) {
        return AuditErrors.AUDIT_ROW_NOT_FOUND.error("no audit row " + auditId);
    }

    /** What a session id that is not a uuid answers. */
    static DomainException invalidSession(String sessionId) {
        return AuditErrors.INVALID_SESSION.error("session id must be a uuid", Map.of("field", "session_id"));
    }

    /** The rows of an agent session in time order, each with its composite children down to {@code maxDepth}. */
    public List<Map<String, Object>> replay(UUID tenant, UUID session, int maxDepth) {
        check(maxDepth >= 1 && maxDepth <= 100, "max_depth must be 1..100");
        List<Row> rows = jdbc.query("SELECT " + COLUMNS + " FROM audit_rows WHERE tenant_id = ? AND session_id = ? "
                + "ORDER BY occurred_at, id", AuditQueries::row, tenant, session);
        Map<UUID, List<Row>> children = new LinkedHashMap<>();
        List<Row> roots = new ArrayList<>();
        Set<UUID> ids = new java.util.HashSet<>();
        rows.forEach(r -> ids.add(r.auditId()));
        for (Row r : rows) {
            if (r.parentAuditId().isPresent() && ids.contains(r.parentAuditId().get())) {
                children.computeIfAbsent(r.parentAuditId().get(), k -> new ArrayList<>()).add(r);
            } else {
                roots.add(r);
            }
        }
        return roots.stream().map(r -> tree(r, children, 1, maxDepth)).toList();
    }

    private static Map<String, Object> tree(Row r, Map<UUID, List<Row>> children, int depth, int maxDepth) {
        Map<String, Object> node = JsonMapping.mapper().convertValue(r, new TypeReference<LinkedHashMap<String, Object>>() { });
        List<Row> kids = children.getOrDefault(r.auditId(), List.of());
        if (depth < maxDepth) {
            node.put("children", kids.stream().map(k -> tree(k, children, depth + 1, maxDepth)).toList());
        } else if (!kids.isEmpty()) {
            node.put("children_truncated", kids.size());
        }
        return node;
    }

    /** Who dispatched against a target, most recent first. */
    public List<Map<String, Object>> whoTouched(UUID tenant, String target) {
        return jdbc.query("""
                SELECT r.principal, max(n.username) AS username, r.principal_kind, count(*) AS calls,
                       count(*) FILTER (WHERE r.op_class = 'write') AS writes, max(r.occurred_at) AS last_at
                  FROM audit_rows r LEFT JOIN tenancy_principal_names n ON n.sub = r.principal
                 WHERE r.tenant_id = ? AND r.target = ?
                 GROUP BY r.principal, r.principal_kind ORDER BY last_at DESC""", rs -> {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("principal", rs.getString("principal"));
                    m.put("username", rs.getString("username")); // the sub's preferred_username, when one was seen
                    m.put("principal_kind", rs.getString("principal_kind"));
                    m.put("calls", rs.getLong("calls"));
                    m.put("writes", rs.getLong("writes"));
                    m.put("last_at", rs.getTimestamp("last_at").toInstant().toString());
                    return m;
                }, tenant, target);
    }

    /**
     * Reflex: a summary of governed activity in a window — outcomes, denials, parked and decided
     * approvals, top operations and top principals.
     */
    public Map<String, Object> reflex(UUID tenant, Optional<String> since, Optional<String> until) {
        Instant from = since.map(s -> TimeArg.parse(s, "since")).orElse(Instant.now().minusSeconds(86400));
        Instant to = until.map(u -> TimeArg.parse(u, "until")).orElse(Instant.now());
        Object[] window = {tenant, Timestamp.from(from), Timestamp.from(to)};
        String where = " FROM audit_rows WHERE tenant_id = ? AND occurred_at >= ? AND occurred_at < ?";
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("tenant_id", tenant.toString());
        out.put("since", from.toString());
        out.put("until", to.toString());
        Map<String, Long> outcomes = new LinkedHashMap<>();
        jdbc.query("SELECT result_status, count(*)" + where + " GROUP BY 1 ORDER BY 1",
                rs -> outcomes.put(rs.getString(1), rs.getLong(2)), window);
        out.put("outcomes", outcomes);
        out.put("denials", top("SELECT op_id, count(*)" + where + " AND result_status = 'denied' GROUP BY 1 "
                + "ORDER BY 2 DESC, 1 LIMIT 10", window));
        Map<String, Long> approvals = new LinkedHashMap<>();
        jdbc.query("SELECT op_id, count(*)" + where + " AND op_id LIKE 'svc.approval.%' GROUP BY 1",
                rs -> approvals.put(rs.getString(1).substring("svc.approval.".length()), rs.getLong(2)), window);
        approvals.put("parked", outcomes.getOrDefault("awaiting_approval", 0L));
        out.put("approvals", approvals);
        out.put("top_operations", top("SELECT op_id, count(*)" + where + " AND op_id NOT LIKE 'svc.%' GROUP BY 1 "
                + "ORDER BY 2 DESC, 1 LIMIT 10", window));
        out.put("top_principals", top("SELECT principal, count(*)" + where + " GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10",
                window));
        return out;
    }

    private List<Map<String, Object>> top(String sql, Object[] params) {
        return jdbc.query(sql, rs -> Map.<String, Object>of("name", rs.getString(1), "count", rs.getLong(2)), params);
    }

    static String globToLike(String glob) {
        StringBuilder b = new StringBuilder();
        for (char ch : glob.toCharArray()) {
            switch (ch) {
                case '*' -> b.append('%');
                case '?' -> b.append('_');
                case '%', '_', '\\' -> b.append('\\').append(ch);
                default -> b.append(ch);
            }
        }
        return b.toString();
    }

    static String escapeLike(String text) {
        return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }

    private static void add(StringBuilder sql, List<Object> params, String clause, Object value) {
        sql.append(clause);
        params.add(value);
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw AuditErrors.INVALID_FILTER.error(message, Map.of());
        }
    }

    private static String encodeCursor(Row r) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((r.occurredAt() + "|" + r.auditId())
                .getBytes(StandardCharsets.UTF_8));
    }

    private static String[] decodeCursor(String c) {
        try {
            String[] parts = new String(Base64.getUrlDecoder().decode(c), StandardCharsets.UTF_8).split("\\|");
            Instant at = Instant.parse(parts[0]);
            UUID.fromString(parts[1]);
            if (at.isBefore(dev.backplane.kernel.util.Times.EARLIEST) || at.isAfter(dev.backplane.kernel.util.Times.LATEST)) {
                throw new IllegalArgumentException("cursor time out of range");
            }
            return parts;
        } catch (RuntimeException e) {
            throw CommonErrors.INVALID_CURSOR.error("cursor is not one this server handed out",
                    Map.of("field", "cursor"));
        }
    }

    private static Row row(ResultSet rs) throws SQLException {
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
