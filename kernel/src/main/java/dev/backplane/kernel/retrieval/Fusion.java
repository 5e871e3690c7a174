package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.retrieval.RetrievalEngine.Mode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How operation search fuses its two rankings, weighted reciprocal rank fusion: {@code weight / (k + rank)} summed
 * per item, over the first {@code depth} of each ranking — ranks only, since the catalog's lexical side scores with
 * its own boosts; a dense hit below {@code minCosine} is no hit (a query about nothing in the corpus finds nothing,
 * rather than its nearest strangers). kb and memory fuse scores instead ({@link ScoreFusion}).
 */
public record Fusion(double lexicalWeight, double denseWeight, int k, int depth, double minCosine) {

    /**
     * Operation search: an operation's words (its id, group, path and description) are short and precise, and
     * the catalog's lexical side knows synonyms and verbs, so it weighs as much as the dense side, and a small k
     * lets each side's first ranks decide (0.5 and k 60 before issue 44 I7); measured on the labelled sets of
     * OperationSearchSpecsIT (nine vendor specs) and OperationSearchQualityIT (40 Kubernetes tasks); docs:
     * memory-and-kb, Retrieval.
     */
    public static final Fusion OPERATIONS = new Fusion(1.0, 1.0, 20, 50, 0.2);

    /** A fused item and its score. */
    public record Fused<T>(T item, double score) {
    }

    /**
     * The two rankings fused, best first (ties by {@code ties}), the first {@code limit}; a lexical-only search
     * takes its ranking at weight 1.
     */
    <T> List<Fused<T>> fuse(List<T> lexical, List<T> dense, Mode mode, int limit, Comparator<T> ties) {
        Map<T, Double> fused = new HashMap<>();
        add(fused, lexical, mode == Mode.LEXICAL ? 1.0 : lexicalWeight);
        add(fused, dense, denseWeight);
        List<Fused<T>> hits = new ArrayList<>();
        fused.forEach((item, score) -> hits.add(new Fused<>(item, score)));
        hits.sort(Comparator.<Fused<T>>comparingDouble(Fused::score).reversed().thenComparing(Fused::item, ties));
        return hits.size() > limit ? List.copyOf(hits.subList(0, limit)) : hits;
    }

    private <T> void add(Map<T, Double> fused, List<T> ranked, double weight) {
        for (int i = 0; i < Math.min(ranked.size(), depth); i++) {
            fused.merge(ranked.get(i), weight / (k + i + 1), Double::sum);
        }
    }
}
