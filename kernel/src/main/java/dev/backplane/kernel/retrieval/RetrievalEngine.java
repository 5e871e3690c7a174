package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * The one hybrid retrieval engine (ARCHITECTURE §8): a surface's lexical ranking (PostgreSQL full
 * text, supplied by the surface's store) and dense ranking (all-MiniLM-L6-v2 chunks, exact cosine)
 * fused by weighted reciprocal rank fusion — ranks, never raw scores.
 */
public final class RetrievalEngine {

    /** How to rank. */
    public enum Mode { LEXICAL, DENSE, HYBRID }

    /** A surface's lexical ranking: entry ids, best first. */
    @FunctionalInterface
    public interface Lexical {
        List<UUID> ranked(String query, int depth);
    }

    /** One fused hit. */
    public record Hit(UUID entryId, double score) {
    }

    /** Fusion constants, tuned on BEIR ArguAna (README: Retrieval). */
    static final int RRF_K = 60;
    static final int DEPTH = 100;
    static final double LEXICAL_WEIGHT = 0.35;
    static final double DENSE_WEIGHT = 1.0;

    private final Embedder embedder;
    private final VectorIndex vectors;

    public RetrievalEngine(Jdbc jdbc, ChangeFeed feed, Embedder embedder) {
        this.embedder = embedder;
        this.vectors = new VectorIndex(jdbc, feed);
    }

    /** Embeds and stores an entry's text (chunked) for dense search. */
    public void index(UUID tenant, String surface, UUID entryId, String text) {
        vectors.put(tenant, surface, entryId, embedder.embedChunks(text));
    }

    public void unindex(UUID tenant, String surface, UUID entryId) {
        vectors.remove(tenant, surface, entryId);
    }

    public List<Hit> search(UUID tenant, String surface, String query, int limit, Mode mode, Lexical lexical,
                            Predicate<UUID> allowed) {
        List<UUID> lex = mode == Mode.DENSE ? List.of() : lexical.ranked(query, DEPTH);
        List<UUID> dense = mode == Mode.LEXICAL ? List.of()
                : vectors.nearest(tenant, surface, embedder.embed(query), DEPTH, allowed).stream()
                        .map(VectorIndex.Scored::entryId).toList();
        Map<UUID, Double> fused = new HashMap<>();
        add(fused, lex, mode == Mode.LEXICAL ? 1.0 : LEXICAL_WEIGHT);
        add(fused, dense, DENSE_WEIGHT);
        List<Hit> hits = new ArrayList<>();
        fused.forEach((id, score) -> hits.add(new Hit(id, score)));
        hits.sort(Comparator.comparingDouble(Hit::score).reversed().thenComparing(h -> h.entryId().toString()));
        return hits.size() > limit ? hits.subList(0, limit) : hits;
    }

    private static void add(Map<UUID, Double> fused, List<UUID> ranked, double weight) {
        for (int i = 0; i < ranked.size(); i++) {
            fused.merge(ranked.get(i), weight / (RRF_K + i + 1), Double::sum);
        }
    }
}
