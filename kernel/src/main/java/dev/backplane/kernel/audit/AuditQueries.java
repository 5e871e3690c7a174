package dev.backplane.kernel.audit;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.kernel.util.TimeArg;
import java.nio.charset.StandardCharsets;
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


    private final AuditQueryStore store;

    public AuditQueries(Jdbc jdbc) {
        this.store = new AuditQueryStore(jdbc);
    }

    public Page query(UUID tenant, Filter f, Optional<String> cursor, int limit) {
        if (limit < 1 || limit > 1000) {
            throw CommonErrors.INVALID_LIMIT.error("limit must be 1..1000, got " + limit, Map.of("field", "limit"));
        }
        f.opClass().ifPresent(c -> check(OP_CLASSES.contains(c), "op_class must be one of " + OP_CLASSES));
        f.resultStatus().ifPresent(s -> check(STATUSES.contains(s), "result_status must be one of " + STATUSES));
        List<Row> rows = store.page(tenant, f, cursor.map(AuditQueries::decodeCursor), limit + 1);
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
        return store.connectorReviewTrail(tenant, connectorId, limit);
    }

    /** The audit rows of approval request {@code approvalId} on {@code target}, oldest first (at most {@code limit}). */
    public List<Row> approvalTrail(UUID tenant, UUID approvalId, String target, Instant createdAt, int limit) {
        return store.approvalTrail(tenant, approvalId, target, createdAt, limit);
    }

    /** The display name (preferred_username) of each principal of {@code rows} that has one. */
    public Map<String, String> usernames(List<Row> rows) {
        return usernamesOf(rows.stream().map(Row::principal).distinct().toList());
    }

    /** The display name (preferred_username) of each of {@code subs} that has one. */
    public Map<String, String> usernamesOf(java.util.Collection<String> subs) {
        return store.usernames(subs);
    }

    public Row show(UUID tenant, UUID id) {
        return store.show(tenant, id).orElseThrow(() -> notFound(id.toString()));
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
        List<Row> rows = store.session(tenant, session);
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
        return store.whoTouched(tenant, target);
    }

    /**
     * Reflex: a summary of governed activity in a window — outcomes, denials, parked and decided
     * approvals, top operations and top principals.
     */
    public Map<String, Object> reflex(UUID tenant, Optional<String> since, Optional<String> until) {
        Instant from = since.map(s -> TimeArg.parse(s, "since")).orElse(Instant.now().minusSeconds(86400));
        Instant to = until.map(u -> TimeArg.parse(u, "until")).orElse(Instant.now());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("tenant_id", tenant.toString());
        out.put("since", from.toString());
        out.put("until", to.toString());
        Map<String, Long> outcomes = store.outcomes(tenant, from, to);
        out.put("outcomes", outcomes);
        out.put("denials", store.topDenied(tenant, from, to));
        Map<String, Long> approvals = store.approvals(tenant, from, to);
        approvals.put("parked", outcomes.getOrDefault("awaiting_approval", 0L));
        out.put("approvals", approvals);
        out.put("top_operations", store.topOperations(tenant, from, to));
        out.put("top_principals", store.topPrincipals(tenant, from, to));
        return out;
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
}
