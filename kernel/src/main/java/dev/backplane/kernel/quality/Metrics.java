package dev.backplane.kernel.quality;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Ranking quality over labelled queries with one right answer each, at cut-off {@value #K}:
 * recall@10 (share found in the top 10), MRR (mean reciprocal rank, 0 when not in the top 10) and
 * nDCG@10 (binary relevance: 1/log2(rank + 1)).
 */
final class Metrics {

    static final int K = 10;
    static final List<String> NAMES = List.of("recall_at_10", "mrr", "ndcg_at_10");

    private int queries;
    private int found;
    private double reciprocal;
    private double gain;

    void add(List<String> ranked, String expected) {
        queries++;
        int rank = ranked.subList(0, Math.min(K, ranked.size())).indexOf(expected) + 1;
        if (rank > 0) {
            found++;
            reciprocal += 1.0 / rank;
            gain += 1.0 / (Math.log(rank + 1) / Math.log(2));
        }
    }

    Map<String, Double> values() {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("recall_at_10", round(queries == 0 ? 0 : (double) found / queries));
        m.put("mrr", round(queries == 0 ? 0 : reciprocal / queries));
        m.put("ndcg_at_10", round(queries == 0 ? 0 : gain / queries));
        return m;
    }

    private static double round(double v) {
        return Math.round(v * 10_000) / 10_000.0;
    }
}
