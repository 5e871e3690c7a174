package dev.backplane.kernel.quality;

import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.TimeArg;
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

    private final QualityStore store;

    public UsageReport(Jdbc jdbc) {
        this.store = new QualityStore(jdbc);
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
            out.put("principals", store.usageByPrincipal(caller.tenantId(), from, surfaces).stream().map(p -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("principal", p.principal());
                m.put("principal_kind", p.principalKind());
                m.put("surface", p.surface());
                m.put("searches", p.searches());
                m.put("last_search_at", p.lastSearchAt().toString());
                return m;
            }).toList());
        }
        return out;
    }

    private Map<String, Object> surface(UUID tenant, String surface, Instant from, Optional<String> principal) {
        QualityStore.SurfaceUsage u = store.surfaceUsage(tenant, surface, from, principal);
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("surface", surface);
        r.put("searches", u.searches());
        r.put("zero_hit_searches", u.zeroHitSearches());
        r.put("distinct_principals", u.distinctPrincipals());
        r.put("active_days", u.activeDays());
        r.put("mcp_searches", u.mcpSearches());
        r.put("rest_searches", u.searches() - u.mcpSearches());
        r.put("p50_latency_ms", u.p50LatencyMs());
        r.put("p95_latency_ms", u.p95LatencyMs());
        r.put("first_search_at", Optional.ofNullable(u.firstSearchAt()).map(Instant::toString).orElse(null));
        r.put("last_search_at", Optional.ofNullable(u.lastSearchAt()).map(Instant::toString).orElse(null));
        r.put("by_day", store.usageByDay(tenant, surface, from, principal).stream().map(d -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("date", d.date());
            m.put("searches", d.searches());
            m.put("distinct_principals", d.distinctPrincipals());
            return m;
        }).toList());
        return r;
    }
}
