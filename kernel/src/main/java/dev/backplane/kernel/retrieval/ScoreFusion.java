package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.retrieval.RetrievalEngine.Hit;
import dev.backplane.kernel.retrieval.RetrievalEngine.Mode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * How kb and memory fuse their two rankings: a convex combination of the legs' normalised scores over each leg's
 * first {@code depth} candidates, {@code denseWeight × dense + (1 − denseWeight) × lexical}; an entry one leg did not
 * return scores 0 on that leg. The lexical leg is divided by its best score (BM25 has a true zero: no query word
 * matched), the dense leg min-max normalised (a cosine has none: the candidates' own spread is its scale). Scores,
 * not ranks: a BM25 score says how far the best match is ahead of the next and a cosine how close the nearest
 * neighbours sit together, which reciprocal rank fusion throws away. Bruch, Gai and Ingber (ACM TOIS 2023, "An
 * Analysis of Fusion Functions for Hybrid Retrieval") found this fusion better than reciprocal rank fusion in and out
 * of domain, and its one weight learnt from few queries; measured here on BEIR ArguAna with both shipped models
 * (docs/guide/memory-and-kb.md, Fusion). Operation search keeps {@link Fusion} (its lexical side ranks with boosts of
 * its own).
 *
 * @param denseWeight the dense leg's share of the fused score, in (0, 1)
 * @param depth how many candidates each leg contributes
 */
record ScoreFusion(double denseWeight, int depth) {

    /** Candidates each leg of a kb or memory search contributes. */
    static final int DOCUMENTS_DEPTH = 100;

    /**
     * kb and memory searches with {@code model}'s vectors: its {@link EmbeddingModels.Model#fusionDenseWeight}
     * (KbArguAnaIT with -Dsvc.arguana.tune=true prints the grid it was chosen from).
     */
    static ScoreFusion documents(EmbeddingModels.Model model) {
        return new ScoreFusion(model.fusionDenseWeight(), DOCUMENTS_DEPTH);
    }

    ScoreFusion {
        if (!(denseWeight > 0 && denseWeight < 1) || depth < 1) {
            throw new IllegalArgumentException("denseWeight must be in (0, 1) and depth at least 1");
        }
    }

    /** A candidate of one leg and its raw score (BM25, never negative; cosine): higher is better. */
    record Candidate(UUID entryId, double score) {
    }

    /**
     * The fused ranking, best first, the first {@code limit}; ties by entry id. A lexical-only search ranks by the
     * lexical leg alone (its normalised score), a dense-only one by the dense leg.
     */
    List<Hit> fuse(List<Candidate> lexical, List<Candidate> dense, Mode mode, int limit) {
        Map<UUID, Double> fused = new HashMap<>();
        add(fused, lexical, false, switch (mode) {
            case LEXICAL -> 1.0;
            case DENSE -> 0.0;
            case HYBRID -> 1 - denseWeight;
        });
        add(fused, dense, true, switch (mode) {
            case LEXICAL -> 0.0;
            case DENSE -> 1.0;
            case HYBRID -> denseWeight;
        });
        List<Hit> hits = new ArrayList<>(fused.size());
        fused.forEach((id, score) -> hits.add(new Hit(id, score)));
        hits.sort(Comparator.comparingDouble(Hit::score).reversed().thenComparing(h -> h.entryId().toString()));
        return hits.size() > limit ? List.copyOf(hits.subList(0, limit)) : hits;
    }

    /**
     * Adds {@code weight} × each candidate's score normalised over the leg's first {@code depth}: divided by the best,
     * or min-max when {@code fromLowest}.
     */
    private void add(Map<UUID, Double> fused, List<Candidate> leg, boolean fromLowest, double weight) {
        int n = Math.min(leg.size(), depth);
        if (n == 0 || weight == 0) {
            return;
        }
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            lo = Math.min(lo, leg.get(i).score());
            hi = Math.max(hi, leg.get(i).score());
        }
        if (!fromLowest) {
            lo = 0;
        }
        double span = hi - lo;
        for (int i = 0; i < n; i++) {
            Candidate c = leg.get(i);
            // one candidate, or all equal: each is the leg's best
            fused.merge(c.entryId(), weight * (span > 0 ? (c.score() - lo) / span : 1.0), Double::sum);
        }
    }
}
