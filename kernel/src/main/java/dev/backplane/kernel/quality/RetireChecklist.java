package dev.backplane.kernel.quality;

import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code svc retrieval retire-checklist}: what must hold, per surface, before the grep workflow (and
 * for operations the catalog's own lexical search) can be retired — each item computed now, pass or
 * fail with its evidence. A surface is ready when every item passes; the whole checklist when every
 * surface is. Nothing is retired automatically: the checklist informs an operator's decision.
 */
public final class RetireChecklist {

    /** Labelled queries an eval needs before its numbers mean anything. */
    static final int MIN_QUERIES = 10;
    /** Curated (human-written) queries: derived known-item queries alone only show an entry is found by its title. */
    static final int MIN_CURATED = 5;
    /** The overlap window: the surface must have been searched for at least this long. */
    static final int OVERLAP_DAYS = 30;
    /** Days with at least one search, within the last {@value #OVERLAP_DAYS}. */
    static final int MIN_ACTIVE_DAYS = 20;
    /** Distinct principals who searched within the last {@value #OVERLAP_DAYS} days. */
    static final int MIN_PRINCIPALS = 3;

    private final QualityStore store;
    private final RetrievalEval eval;

    public RetireChecklist(Jdbc jdbc, RetrievalEval eval) {
        this.store = new QualityStore(jdbc);
        this.eval = eval;
    }

    public Map<String, Object> checklist(Caller caller) {
        List<Map<String, Object>> surfaces = new ArrayList<>();
        boolean allReady = true;
        for (String name : RetrievalEval.SURFACES) {
            Map<String, Object> report = eval.evaluate(caller, name);
            Map<String, Object> comparison = BaselineComparison.compare(report, eval.saved(caller, name));
            List<Item> items = new ArrayList<>();
            boolean hybrid = report.get("engine").equals("hybrid");
            items.add(new Item("on_retrieval_engine", hybrid, hybrid ? "served by the hybrid retrieval engine"
                    : "served by " + report.get("engine") + ": " + report.get("note")));
            long queries = ((Number) report.get("queries")).longValue();
            long curated = ((Number) report.get("curated_queries")).longValue();
            items.add(new Item("labelled_queries", queries >= MIN_QUERIES, queries + " labelled queries (need "
                    + MIN_QUERIES + ")"));
            items.add(new Item("curated_queries", curated >= MIN_CURATED, curated + " curated queries (need " + MIN_CURATED
                    + "; kb metadata eval_queries, memory tags eval:<query>, convention body lines eval: <query>)"));
            @SuppressWarnings("unchecked")
            Map<String, Double> e = (Map<String, Double>) report.get("engine_metrics");
            @SuppressWarnings("unchecked")
            Map<String, Double> g = (Map<String, Double>) report.get("grep_metrics");
            items.add(new Item("beats_grep", Boolean.TRUE.equals(report.get("beats_baseline")), String.format(Locale.ROOT,
                    "%s vs grep: recall@10 %.3f/%.3f, MRR %.3f/%.3f, nDCG@10 %.3f/%.3f", report.get("engine"),
                    e.get("recall_at_10"), g.get("recall_at_10"), e.get("mrr"), g.get("mrr"), e.get("ndcg_at_10"),
                    g.get("ndcg_at_10"))));
            items.add(new Item("no_regression", comparison.get("status").equals("ok"), comparison.get("status").equals("ok")
                    ? "within " + BaselineComparison.TOLERANCE + " of the baseline saved " + comparison.get("baseline_saved_at")
                    : comparison.get("status").equals("no_baseline") ? "no saved baseline (svc retrieval eval "
                    + "--save-baseline)" : "fell below the saved baseline: " + comparison.get("regressed_metrics")));
            items.addAll(usage(caller, name));
            boolean ready = items.stream().allMatch(Item::pass);
            allReady &= ready;
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("surface", name);
            s.put("ready", ready);
            s.put("failing", items.stream().filter(i -> !i.pass()).map(Item::item).toList());
            s.put("items", items);
            surfaces.add(s);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("ready", allReady);
        out.put("surfaces", surfaces);
        return out;
    }

    private List<Item> usage(Caller caller, String surface) {
        Instant window = Instant.now().minus(Duration.ofDays(OVERLAP_DAYS));
        Optional<Instant> first = store.firstSearch(caller.tenantId(), surface);
        QualityStore.RecentUse recent = store.recentUse(caller.tenantId(), surface, window);
        return List.of(
                new Item("in_use_" + OVERLAP_DAYS + "_days", first.map(f -> !f.isAfter(window)).orElse(false), first
                        .map(f -> "first search " + f + " (need " + OVERLAP_DAYS + " days of overlap)")
                        .orElse("never searched")),
                new Item("daily_use", recent.activeDays() >= MIN_ACTIVE_DAYS, recent.activeDays() + " of the last "
                        + OVERLAP_DAYS + " days had searches (need " + MIN_ACTIVE_DAYS + "); " + recent.searches()
                        + " searches"),
                new Item("operator_breadth", recent.principals() >= MIN_PRINCIPALS, recent.principals()
                        + " principals searched in the last " + OVERLAP_DAYS + " days (need " + MIN_PRINCIPALS + ")"));
    }

    /** One item of a surface's checklist: whether it passes, and the evidence either way. */
    public record Item(String item, boolean pass, String evidence) {
    }
}
