package dev.backplane.kernel.quality;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.conventions.Conventions;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.kb.KbService;
import dev.backplane.kernel.memory.MemoryService;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.Digests;
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
 * for the surface and compared with the one saved before (a metric more than {@value
 * BaselineComparison#TOLERANCE} below it is a regression, {@link BaselineComparison}).
 */
public final class RetrievalEval {

    public static final List<String> SURFACES = List.of("kb", "memory", "operations", "conventions");
    /** At most this many labelled queries per surface (curated first, then derived, evenly sampled). */
    static final int MAX_QUERIES = 200;

    private final QualityStore store;
    private final Map<String, EvalSurface> surfaces = new LinkedHashMap<>();

    public RetrievalEval(Jdbc jdbc, KbService kb, MemoryService memory, CatalogService catalog,
                         Conventions conventions) {
        this.store = new QualityStore(jdbc);
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
                Map<String, Object> c = BaselineComparison.compare(r, saved(caller, name));
                r.put("comparison", c);
                compareStatus = BaselineComparison.worse(compareStatus, (String) c.get("status"));
            }
            if (save) {
                store.saveBaseline(caller.tenantId(), name, r, caller.sub());
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
        return store.savedBaseline(caller.tenantId(), surface);
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
