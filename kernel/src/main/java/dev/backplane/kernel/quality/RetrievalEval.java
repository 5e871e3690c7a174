package dev.backplane.kernel.quality;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.Digests;
import dev.backplane.kernel.util.JsonMapping;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code svc retrieval eval}: each surface's search against the grep baseline over the same corpus
 * and the same labelled queries (recall@10, MRR, nDCG@10), optionally saved as the tenant's baseline
 * for the surface and compared with the one saved before (a metric more than {@value #TOLERANCE}
 * below it is a regression).
 */
public final class RetrievalEval {

    public static final List<String> SURFACES = List.of("kb", "memory", "operations", "conventions");
    /** How far a metric may fall below the saved baseline before it counts as a regression (eval noise). */
    static final double TOLERANCE = 0.02;
    /** At most this many labelled queries per surface (curated first, then derived, evenly sampled). */
    static final int MAX_QUERIES = 200;

    private final Jdbc jdbc;
    private final Map<String, EvalSurface> surfaces = new LinkedHashMap<>();

    public RetrievalEval(Jdbc jdbc, dev.backplane.kernel.kb.KbService kb, dev.backplane.kernel.memory.MemoryService memory,
                         dev.backplane.kernel.catalog.CatalogService catalog,
                         dev.backplane.kernel.conventions.Conventions conventions) {
        this.jdbc = jdbc;
        surfaces.put("kb", EvalSurfaces.kb(kb));
        surfaces.put("memory", EvalSurfaces.memory(memory));
        surfaces.put("operations", EvalSurfaces.operations(catalog));
        surfaces.put("conventions", EvalSurfaces.conventions(conventions));
    }

    /** The surfaces a {@code --surface} value names ({@code all} or absent: every one). */
    public static List<String> surfaces(Optional<String> surface) {
        String s = surface.map(v -> v.trim().toLowerCase(Locale.ROOT)).orElse("all");
        if (s.equals("all")) {
            return SURFACES;
        }
        if (!SURFACES.contains(s)) {
            throw QualityErrors.INVALID_SURFACE.error("surface must be kb, memory, operations, conventions or all, "
                    + "got '" + surface.orElse("") + "'", Map.of("field", "surface", "valid_surfaces", List.of("kb",
                    "memory", "operations", "conventions", "all")));
        }
        return List.of(s);
    }

    /** Runs the eval; saving a baseline needs tenant_admin (it is the tenant's yardstick). */
    public Map<String, Object> run(Caller caller, Optional<String> surface, Optional<String> baseline, boolean save,
                                   boolean compare) {
        List<String> names = surfaces(surface);
        if (!baseline.orElse("grep").equals("grep")) {
            throw QualityErrors.INVALID_BASELINE.error("the only baseline is grep, got '" + baseline.get() + "'",
                    Map.of("field", "baseline", "valid_baselines", List.of("grep")));
        }
        if (save) {
            caller.require(Role.TENANT_ADMIN);
        }
        List<Map<String, Object>> reports = new ArrayList<>();
        String compareStatus = "ok";
        for (String name : names) {
            Map<String, Object> r = evaluate(caller, name);
            if (compare) {
                Map<String, Object> c = compare(r, saved(caller, name));
                r.put("comparison", c);
                compareStatus = worse(compareStatus, (String) c.get("status"));
            }
            if (save) {
                jdbc.update("""
                        INSERT INTO retrieval_eval_baselines (tenant_id, surface, report, saved_by) VALUES (?, ?, ?, ?)
                        ON CONFLICT (tenant_id, surface) DO UPDATE SET report = EXCLUDED.report, saved_at = now(),
                            saved_by = EXCLUDED.saved_by""", caller.tenantId(), name, Jdbc.jsonb(r), caller.sub());
                r.put("saved_as_baseline", true);
            }
            reports.add(r);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("k", Metrics.K);
        out.put("baseline", "grep");
        out.put("surfaces", reports);
        out.put("compare_status", compare ? compareStatus : null);
        return out;
    }

    /** One surface's report: both rankings' metrics over the same labelled queries. */
    Map<String, Object> evaluate(Caller caller, String name) {
        EvalSurface s = surfaces.get(name);
        EvalSurface.Corpus corpus = s.corpus().apply(caller);
        List<EvalSurface.LabelledQuery> queries = sample(corpus.queries());
        Map<String, Map<String, String>> byPartition = new HashMap<>();
        corpus.docs().forEach(d -> byPartition.computeIfAbsent(d.partition(), p -> new HashMap<>())
                .put(d.key(), d.text().toLowerCase(Locale.ROOT)));
        Metrics engine = new Metrics();
        Metrics grep = new Metrics();
        List<Long> latencies = new ArrayList<>();
        for (EvalSurface.LabelledQuery q : queries) {
            long t0 = System.nanoTime();
            List<String> hits = s.search().run(caller, q, Metrics.K);
            latencies.add((System.nanoTime() - t0) / 1_000_000L);
            engine.add(hits, q.expected());
            grep.add(GrepBaseline.rank(q.query(), byPartition.getOrDefault(q.partition(), Map.of()), Metrics.K),
                    q.expected());
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("surface", name);
        r.put("engine", s.engine());
        r.put("note", s.note().orElse(null));
        r.put("documents", corpus.docs().size());
        r.put("queries", queries.size());
        r.put("curated_queries", queries.stream().filter(q -> q.source().equals("curated")).count());
        r.put("derived_queries", queries.stream().filter(q -> q.source().equals("derived")).count());
        r.put("eval_set_sha256", digest(queries));
        Map<String, Double> e = engine.values();
        Map<String, Double> g = grep.values();
        r.put("engine_metrics", e);
        r.put("grep_metrics", g);
        r.put("beats_baseline", !queries.isEmpty() && Metrics.NAMES.stream().allMatch(m -> e.get(m) >= g.get(m)));
        latencies.sort(null);
        r.put("p50_latency_ms", latencies.isEmpty() ? null : latencies.get(latencies.size() / 2));
        return r;
    }

    /** The baseline saved for the caller's tenant and the surface, if any. */
    Optional<JsonNode> saved(Caller caller, String surface) {
        return jdbc.queryOne("SELECT report, saved_at, saved_by FROM retrieval_eval_baselines WHERE tenant_id = ? AND "
                + "surface = ?", rs -> {
                    try {
                        var node = (com.fasterxml.jackson.databind.node.ObjectNode) JsonMapping.mapper().readTree(rs.getString(1));
                        node.put("saved_at", rs.getTimestamp(2).toInstant().toString());
                        node.put("saved_by", rs.getString(3));
                        return node;
                    } catch (IOException ex) {
                        throw new java.sql.SQLException("saved baseline is not JSON", ex);
                    }
                }, caller.tenantId(), surface);
    }

    /** status ok, regressed (a metric fell more than the tolerance) or no_baseline. */
    static Map<String, Object> compare(Map<String, Object> current, Optional<JsonNode> saved) {
        Map<String, Object> c = new LinkedHashMap<>();
        if (saved.isEmpty()) {
            c.put("status", "no_baseline");
            c.put("message", "no baseline saved for " + current.get("surface") + "; run svc retrieval eval --save-baseline");
            return c;
        }
        @SuppressWarnings("unchecked")
        Map<String, Double> now = (Map<String, Double>) current.get("engine_metrics");
        Map<String, Double> deltas = new LinkedHashMap<>();
        List<String> fell = new ArrayList<>();
        for (String m : Metrics.NAMES) {
            double before = saved.get().path("engine_metrics").path(m).asDouble();
            deltas.put(m, Math.round((now.get(m) - before) * 10_000) / 10_000.0);
            if (now.get(m) < before - TOLERANCE) {
                fell.add(m);
            }
        }
        c.put("status", fell.isEmpty() ? "ok" : "regressed");
        c.put("regressed_metrics", fell);
        c.put("deltas", deltas);
        c.put("tolerance", TOLERANCE);
        c.put("baseline_saved_at", saved.get().path("saved_at").asText());
        c.put("baseline_saved_by", saved.get().path("saved_by").asText());
        c.put("baseline_engine_metrics", saved.get().path("engine_metrics"));
        c.put("eval_set_changed", !saved.get().path("eval_set_sha256").asText().equals(current.get("eval_set_sha256")));
        return c;
    }

    private static String worse(String a, String b) {
        List<String> order = List.of("ok", "no_baseline", "regressed");
        return order.indexOf(b) > order.indexOf(a) ? b : a;
    }

    /** Curated queries first, then derived ones evenly spread, at most {@value #MAX_QUERIES}; deterministic. */
    static List<EvalSurface.LabelledQuery> sample(List<EvalSurface.LabelledQuery> all) {
        Comparator<EvalSurface.LabelledQuery> order = Comparator.comparing(EvalSurface.LabelledQuery::expected)
                .thenComparing(EvalSurface.LabelledQuery::query);
        List<EvalSurface.LabelledQuery> out = new ArrayList<>(all.stream().filter(q -> q.source().equals("curated"))
                .sorted(order).limit(MAX_QUERIES).toList());
        List<EvalSurface.LabelledQuery> derived = all.stream().filter(q -> !q.source().equals("curated")).sorted(order)
                .toList();
        int room = MAX_QUERIES - out.size();
        double step = derived.size() <= room ? 1 : (double) derived.size() / room;
        for (int i = 0; i < Math.min(room, derived.size()); i++) {
            out.add(derived.get((int) (i * step)));
        }
        return out;
    }

    private static String digest(List<EvalSurface.LabelledQuery> queries) {
        StringBuilder lines = new StringBuilder();
        queries.forEach(q -> lines.append(q.query()).append('\t').append(q.expected()).append('\n'));
        return Digests.sha256Hex(lines.toString());
    }
}
