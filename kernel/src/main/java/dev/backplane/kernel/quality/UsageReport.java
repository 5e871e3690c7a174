package dev.backplane.kernel.quality;

import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.TimeArg;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code svc retrieval usage}: how the retrieval surfaces are used, from the recorded searches (REST
 * and MCP). By default the caller's own searches; the tenant view (everyone's, per principal) needs
 * tenant_admin. Counts, distinct principals, active days, zero-hit searches and latency per surface,
 * and searches per day.
 */
public final class UsageReport {

    static final Duration DEFAULT_WINDOW = Duration.ofDays(30);

    private final Jdbc jdbc;

    public UsageReport(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    public Map<String, Object> report(Caller caller, Optional<String> since, Optional<String> surface, boolean tenantView) {
        if (tenantView) {
            caller.require(Role.TENANT_ADMIN);
        }
        List<String> surfaces = RetrievalEval.surfaces(surface);
        Instant from = since.filter(s -> !s.isBlank()).map(s -> TimeArg.parse(s, "since"))
                .orElse(Instant.now().minus(DEFAULT_WINDOW));
        Optional<String> principal = tenantView ? Optional.empty() : Optional.of(caller.sub());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("view", tenantView ? "tenant" : "mine");
        out.put("tenant_id", caller.tenantId().toString());
        out.put("principal", principal.orElse(null));
        out.put("since", from.toString());
        out.put("until", Instant.now().toString());
        out.put("query_text_stored", false);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String s : surfaces) {
            rows.add(surface(caller.tenantId(), s, from, principal));
        }
        out.put("surfaces", rows);
        if (tenantView) {
            out.put("principals", jdbc.query("""
                    SELECT principal, principal_kind, surface, count(*) AS searches, max(searched_at) AS last_search_at
                      FROM retrieval_searches WHERE tenant_id = ? AND searched_at >= ? AND surface = ANY (?)
                     GROUP BY principal, principal_kind, surface ORDER BY searches DESC, principal LIMIT 200""", rs -> {
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("principal", rs.getString(1));
                        m.put("principal_kind", rs.getString(2));
                        m.put("surface", rs.getString(3));
                        m.put("searches", rs.getLong(4));
                        m.put("last_search_at", rs.getTimestamp(5).toInstant().toString());
                        return m;
                    }, caller.tenantId(), Timestamp.from(from), surfaces.toArray(String[]::new)));
        }
        return out;
    }

    private Map<String, Object> surface(UUID tenant, String surface, Instant from, Optional<String> principal) {
        Object[] args = {tenant, surface, Timestamp.from(from), principal.orElse(null), principal.orElse(null)};
        String where = "tenant_id = ? AND surface = ? AND searched_at >= ? AND (CAST(? AS text) IS NULL OR principal = ?)";
        Map<String, Object> m = jdbc.queryOne("""
                SELECT count(*), count(*) FILTER (WHERE hits = 0), count(DISTINCT principal),
                       count(DISTINCT (searched_at AT TIME ZONE 'UTC')::date), count(*) FILTER (WHERE transport = 'mcp'),
                       percentile_disc(0.5) WITHIN GROUP (ORDER BY latency_ms),
                       percentile_disc(0.95) WITHIN GROUP (ORDER BY latency_ms), min(searched_at), max(searched_at)
                  FROM retrieval_searches WHERE\s""" + where, rs -> {
                    Map<String, Object> r = new LinkedHashMap<>();
                    r.put("surface", surface);
                    r.put("searches", rs.getLong(1));
                    r.put("zero_hit_searches", rs.getLong(2));
                    r.put("distinct_principals", rs.getLong(3));
                    r.put("active_days", rs.getLong(4));
                    r.put("mcp_searches", rs.getLong(5));
                    r.put("rest_searches", rs.getLong(1) - rs.getLong(5));
                    r.put("p50_latency_ms", rs.getObject(6));
                    r.put("p95_latency_ms", rs.getObject(7));
                    r.put("first_search_at", Optional.ofNullable(rs.getTimestamp(8)).map(t -> t.toInstant().toString())
                            .orElse(null));
                    r.put("last_search_at", Optional.ofNullable(rs.getTimestamp(9)).map(t -> t.toInstant().toString())
                            .orElse(null));
                    return r;
                }, args).orElseThrow();
        m.put("by_day", jdbc.query("SELECT (searched_at AT TIME ZONE 'UTC')::date AS day, count(*), count(DISTINCT principal) "
                + "FROM retrieval_searches WHERE " + where + " GROUP BY day ORDER BY day", rs -> {
                    Map<String, Object> d = new LinkedHashMap<>();
                    d.put("date", rs.getString(1));
                    d.put("searches", rs.getLong(2));
                    d.put("distinct_principals", rs.getLong(3));
                    return d;
                }, args));
        return m;
    }
}
