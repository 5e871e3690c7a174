package dev.backplane.kernel.quality;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.JsonMapping;
import java.io.IOException;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * SQL of the quality tooling: the eval baselines a tenant saved ({@code retrieval_eval_baselines}) and the
 * usage figures read from the searches {@code retrieval.SearchLog} recorded ({@code retrieval_searches}).
 */
final class QualityStore {

    /** One surface's searches since an instant; latencies and instants are null when there were none. */
    record SurfaceUsage(long searches, long zeroHitSearches, long distinctPrincipals, long activeDays,
                        long mcpSearches, Number p50LatencyMs, Number p95LatencyMs, Instant firstSearchAt,
                        Instant lastSearchAt) {
    }

    /** One UTC day's searches. */
    record DayUsage(String date, long searches, long distinctPrincipals) {
    }

    /** One principal's searches on one surface. */
    record PrincipalUsage(String principal, String principalKind, String surface, long searches, Instant lastSearchAt) {
    }

    /** A surface's use within the overlap window: days with searches, distinct principals, searches. */
    record RecentUse(long activeDays, long principals, long searches) {
    }

    private static final String USAGE_WHERE =
            "tenant_id = ? AND surface = ? AND searched_at >= ? AND (CAST(? AS text) IS NULL OR principal = ?)";

    private final Jdbc jdbc;

    QualityStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** Saves {@code report} as the tenant's baseline for the surface, replacing the one saved before. */
    void saveBaseline(UUID tenant, String surface, Map<String, Object> report, String savedBy) {
        jdbc.update("""
                INSERT INTO retrieval_eval_baselines (tenant_id, surface, report, saved_by) VALUES (?, ?, ?, ?)
                ON CONFLICT (tenant_id, surface) DO UPDATE SET report = EXCLUDED.report, saved_at = now(),
                    saved_by = EXCLUDED.saved_by""", tenant, surface, Jdbc.jsonb(report), savedBy);
    }

    /** The baseline report saved for the tenant and surface, with {@code saved_at} and {@code saved_by} added. */
    Optional<JsonNode> savedBaseline(UUID tenant, String surface) {
        return jdbc.queryOne("SELECT report, saved_at, saved_by FROM retrieval_eval_baselines WHERE tenant_id = ? AND "
                + "surface = ?", rs -> {
                    try {
                        ObjectNode node = (ObjectNode) JsonMapping.mapper().readTree(rs.getString(1));
                        node.put("saved_at", rs.getTimestamp(2).toInstant().toString());
                        node.put("saved_by", rs.getString(3));
                        return node;
                    } catch (IOException ex) {
                        throw new SQLException("saved baseline is not JSON", ex);
                    }
                }, tenant, surface);
    }

    /** When the surface was first searched in the tenant, if ever. */
    Optional<Instant> firstSearch(UUID tenant, String surface) {
        return jdbc.queryOne("SELECT min(searched_at) FROM retrieval_searches WHERE tenant_id = ? AND "
                + "surface = ?", rs -> Optional.ofNullable(rs.getTimestamp(1)).map(Timestamp::toInstant),
                tenant, surface).orElse(Optional.empty());
    }

    /** The surface's searches in the tenant since {@code since}. */
    RecentUse recentUse(UUID tenant, String surface, Instant since) {
        return jdbc.queryOne("""
                SELECT count(DISTINCT (searched_at AT TIME ZONE 'UTC')::date), count(DISTINCT principal), count(*)
                  FROM retrieval_searches WHERE tenant_id = ? AND surface = ? AND searched_at >= ?""",
                rs -> new RecentUse(rs.getLong(1), rs.getLong(2), rs.getLong(3)), tenant, surface,
                Timestamp.from(since)).orElseThrow();
    }

    /** The surface's searches since {@code from}: everyone's, or {@code principal}'s only. */
    SurfaceUsage surfaceUsage(UUID tenant, String surface, Instant from, Optional<String> principal) {
        return jdbc.queryOne("""
                SELECT count(*), count(*) FILTER (WHERE hits = 0), count(DISTINCT principal),
                       count(DISTINCT (searched_at AT TIME ZONE 'UTC')::date), count(*) FILTER (WHERE transport = 'mcp'),
                       percentile_disc(0.5) WITHIN GROUP (ORDER BY latency_ms),
                       percentile_disc(0.95) WITHIN GROUP (ORDER BY latency_ms), min(searched_at), max(searched_at)
                  FROM retrieval_searches WHERE\s""" + USAGE_WHERE, rs -> new SurfaceUsage(rs.getLong(1),
                        rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5), (Number) rs.getObject(6),
                        (Number) rs.getObject(7), instant(rs.getTimestamp(8)), instant(rs.getTimestamp(9))),
                usageArgs(tenant, surface, from, principal)).orElseThrow();
    }

    /** The surface's searches since {@code from} per UTC day, oldest first. */
    List<DayUsage> usageByDay(UUID tenant, String surface, Instant from, Optional<String> principal) {
        return jdbc.query("SELECT (searched_at AT TIME ZONE 'UTC')::date AS day, count(*), count(DISTINCT principal) "
                + "FROM retrieval_searches WHERE " + USAGE_WHERE + " GROUP BY day ORDER BY day",
                rs -> new DayUsage(rs.getString(1), rs.getLong(2), rs.getLong(3)),
                usageArgs(tenant, surface, from, principal));
    }

    /** Per principal and surface, the searches since {@code from}: the 200 busiest. */
    List<PrincipalUsage> usageByPrincipal(UUID tenant, Instant from, List<String> surfaces) {
        return jdbc.query("""
                SELECT principal, principal_kind, surface, count(*) AS searches, max(searched_at) AS last_search_at
                  FROM retrieval_searches WHERE tenant_id = ? AND searched_at >= ? AND surface = ANY (?)
                 GROUP BY principal, principal_kind, surface ORDER BY searches DESC, principal LIMIT 200""",
                rs -> new PrincipalUsage(rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4),
                        rs.getTimestamp(5).toInstant()), tenant, Timestamp.from(from), surfaces.toArray(String[]::new));
    }

    private static Object[] usageArgs(UUID tenant, String surface, Instant from, Optional<String> principal) {
        return new Object[] {tenant, surface, Timestamp.from(from), principal.orElse(null), principal.orElse(null)};
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
