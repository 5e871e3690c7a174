package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.retrieval.Fusion.Fused;
import dev.backplane.kernel.retrieval.RetrievalEngine.Mode;
import dev.backplane.kernel.retrieval.RetrievalEngine.Ranking;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.IntPredicate;

/**
 * How one search runs: the lexical ranking on a virtual thread beside the query's embedding, the dense ranking
 * (or none, while a large partition's vectors are still being read), and the two fused: kb and memory by
 * {@link ScoreFusion}, a {@link DenseSet}'s items (operations) by {@link Fusion}.
 */
final class HybridSearch {

    private final Embedder embedder;
    private final LexicalIndex lexical;
    private final VectorIndex vectors;
    private final ScoreFusion documents;

    HybridSearch(Embedder embedder, LexicalIndex lexical, VectorIndex vectors) {
        this.embedder = embedder;
        this.documents = ScoreFusion.documents(embedder.model());
        this.lexical = lexical;
        this.vectors = vectors;
    }

    /**
     * kb and memory entries, fused as {@link ScoreFusion#documents} for this generation's model; the dense candidates
     * of several partitions are merged by cosine, which is comparable across them. A hybrid search of a large partition whose slices
     * are not held yet (a fresh replica) is answered at once from PostgreSQL's full-text ranking while they are
     * read in the background ({@link VectorIndex#nearestIfReady}); a search that asks for the dense side alone
     * waits for it.
     */
    Ranking rank(List<UUID> partitions, String surface, String query, int limit, Mode mode, Candidates candidates) {
        ScoreFusion fusion = documents;
        // the lexical ranking (a database round trip for the query's lexemes) runs beside the embedding
        CompletableFuture<List<ScoreFusion.Candidate>> lexicalRanking = mode == Mode.DENSE
                ? CompletableFuture.completedFuture(List.of())
                : CompletableFuture.supplyAsync(() -> lexical.ranked(partitions, surface, query, fusion.depth(),
                        candidates).stream().map(s -> new ScoreFusion.Candidate(s.entryId(), s.score())).toList(),
                        task -> Thread.ofVirtual().name("retrieval-lexical").start(task));
        List<ScoreFusion.Candidate> dense = List.of();
        boolean warming = false;
        if (mode != Mode.LEXICAL) {
            float[] q = queryVector(embedder, partitions.getFirst(), query);
            Optional<List<VectorIndex.Scored>> nearest = mode == Mode.DENSE
                    ? Optional.of(vectors.nearest(partitions, surface, q, fusion.depth(), candidates))
                    : vectors.nearestIfReady(partitions, surface, q, fusion.depth(), candidates);
            warming = nearest.isEmpty();
            dense = nearest.orElse(List.of()).stream().map(s -> new ScoreFusion.Candidate(s.entryId(), s.score())).toList();
        }
        return new Ranking(fusion.fuse(Futures.joined(lexicalRanking), dense, warming ? Mode.LEXICAL : mode, limit),
                warming);
    }

    /**
     * A {@link DenseSet}'s items: {@code lexical} ranks item numbers (the caller's own index), the set ranks by
     * cosine among the {@code allowed} items, and the two are fused. While the set's vectors are not in, the
     * ranking is lexical only.
     */
    List<Fused<Integer>> search(UUID tenant, DenseSet set, String query, int limit, Mode mode, Fusion fusion,
                                BiFunction<String, Integer, List<Integer>> lexical, IntPredicate allowed) {
        // the lexical ranking runs beside the query embedding (most of a short search)
        CompletableFuture<List<Integer>> lexicalRanking = mode == Mode.DENSE ? CompletableFuture.completedFuture(List.of())
                : CompletableFuture.supplyAsync(() -> lexical.apply(query, fusion.depth()),
                        task -> Thread.ofVirtual().name("retrieval-lexical").start(task));
        boolean ready = set.ready();
        List<Integer> dense = mode == Mode.LEXICAL || !ready ? List.of()
                : set.nearest(queryVector(set.embedder(), tenant, query), fusion.depth(), allowed).stream()
                        .filter(h -> h.score() >= fusion.minCosine()).map(DenseSet.Scored::item).toList();
        return fusion.fuse(Futures.joined(lexicalRanking), dense, ready ? mode : Mode.LEXICAL, limit,
                Comparator.naturalOrder());
    }

    /** A query's vector; a text the model cannot embed is the caller's bad query, not a server error. */
    private static float[] queryVector(Embedder embedder, UUID tenant, String query) {
        try {
            return embedder.embedQuery(tenant, query);
        } catch (IllegalArgumentException e) {
            throw CommonErrors.INVALID_QUERY.error("the query cannot be embedded: " + e.getMessage(),
                    Map.of("field", "query"));
        }
    }
}
