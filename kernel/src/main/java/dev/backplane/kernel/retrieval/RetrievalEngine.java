package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * The one hybrid retrieval engine (ARCHITECTURE §8): a surface's lexical ranking (PostgreSQL full
 * text, supplied by the surface's store) and dense ranking (all-MiniLM-L6-v2 chunks: pgvector's HNSW
 * index when the database has the extension, an exact cosine scan in the JVM otherwise) fused by
 * weighted reciprocal rank fusion — ranks, never raw scores.
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
    static final double LEXICAL_WEIGHT = 0.10;
    static final double DENSE_WEIGHT = 1.0;

    private final Embedder embedder;
    private final VectorIndex vectors;

    /** Chooses the vector index once: pgvector when the database can serve it (logged either way). */
    public RetrievalEngine(Jdbc jdbc, ChangeFeed feed, Embedder embedder) {
        this(embedder, VectorIndex.choose(jdbc, feed, embedder.dimension()));
    }

    RetrievalEngine(Embedder embedder, VectorIndex vectors) {
        this.embedder = embedder;
        this.vectors = vectors;
    }

    /** Which vector index serves dense search: {@code pgvector-hnsw} or {@code jvm-exact}. */
    public String vectorIndex() {
        return vectors.kind();
    }

    /** Embeds and stores an entry's text (chunked) for dense search. */
    public void index(UUID tenant, String surface, UUID entryId, String text) {
        vectors.put(tenant, surface, entryId, embedder.embedChunks(text));
    }

    public void unindex(UUID tenant, String surface, UUID entryId) {
        vectors.remove(tenant, surface, entryId);
    }

    public List<Hit> search(UUID tenant, String surface, String query, int limit, Mode mode, Lexical lexical,
                            Candidates candidates) {
        return search(List.of(tenant), surface, query, limit, mode, lexical, candidates);
    }

    /**
     * Searches several partitions of a surface at once (memory: the tenant's entries and the caller's
     * cross-tenant user entries); dense candidates are merged by cosine, which is comparable across them.
     * Only {@code candidates} are returned by the dense side; the lexical side filters on its own.
     */
    public List<Hit> search(List<UUID> partitions, String surface, String query, int limit, Mode mode, Lexical lexical,
                            Candidates candidates) {
        // the lexical ranking (a database round trip) runs beside the embedding and the dense search
        CompletableFuture<List<UUID>> lexicalRanking = mode == Mode.DENSE ? CompletableFuture.completedFuture(List.of())
                : CompletableFuture.supplyAsync(() -> lexical.ranked(lexicalTerms(query), DEPTH),
                        task -> Thread.ofVirtual().name("retrieval-lexical").start(task));
        List<UUID> dense = List.of();
        if (mode != Mode.LEXICAL) {
            dense = vectors.nearest(partitions, surface, embedder.embed(query), DEPTH, candidates).stream()
                    .map(VectorIndex.Scored::entryId).toList();
        }
        List<UUID> lex = joined(lexicalRanking);
        Map<UUID, Double> fused = new HashMap<>();
        add(fused, lex, mode == Mode.LEXICAL ? 1.0 : LEXICAL_WEIGHT);
        add(fused, dense, DENSE_WEIGHT);
        List<Hit> hits = new ArrayList<>();
        fused.forEach((id, score) -> hits.add(new Hit(id, score)));
        hits.sort(Comparator.comparingDouble(Hit::score).reversed().thenComparing(h -> h.entryId().toString()));
        return hits.size() > limit ? hits.subList(0, limit) : hits;
    }

    /** At most this many words of a query go to the full-text search (long queries: the longest, which are rarer). */
    static final int LEXICAL_TERMS = 10;

    /**
     * The words of a query worth a full-text OR-search: distinct, alphanumeric, the longest
     * {@value #LEXICAL_TERMS} (a paragraph-long query would otherwise rank nearly every row).
     * Surfaces feed the result to {@code plainto_tsquery} and OR its lexemes.
     */
    public static String lexicalTerms(String query) {
        java.util.LinkedHashSet<String> words = new java.util.LinkedHashSet<>();
        for (String w : query.toLowerCase(java.util.Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (w.length() > 2) {
                words.add(w);
            }
        }
        return words.stream().sorted(Comparator.comparingInt(String::length).reversed().thenComparing(w -> w))
                .limit(LEXICAL_TERMS).collect(java.util.stream.Collectors.joining(" "));
    }

    private static <T> T joined(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    private static void add(Map<UUID, Double> fused, List<UUID> ranked, double weight) {
        for (int i = 0; i < ranked.size(); i++) {
            fused.merge(ranked.get(i), weight / (RRF_K + i + 1), Double::sum);
        }
    }
}
