package dev.backplane.kernel.retrieval;

import com.pgvector.PGvector;
import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Nearest neighbours from pgvector's HNSW index over {@code retrieval_chunks.embedding_v}, a
 * {@code vector(384)} column PostgreSQL generates from the {@code real[]} record.
 *
 * <p>The extension, the column and the index come from the migrations V046 and V047, which do nothing
 * on a server without pgvector (then the JVM index serves) and build the index concurrently, so a
 * replica never runs DDL at start ({@code db.migrate-on-start=false} deploys give it no right to).
 * {@link PgVectorSetup} only reads the catalogue.
 *
 * <p>A search filters by partition and surface (and by the caller's candidates), which an HNSW graph
 * over every tenant's chunks does not know about: pgvector's iterative scan (0.8.0+) keeps walking
 * the graph until the LIMIT is met. Small partitions and small candidate sets skip the graph and are
 * scanned exactly in PostgreSQL, where an approximate walk would mostly visit other tenants' chunks.
 */
final class PgVectorIndex implements VectorIndex {

    /** Partitions or candidate sets up to this many chunks (entries) are scanned exactly. */
    static final int EXACT_MAX = 5_000;
    /** How many chunk rows an HNSW walk may ask for before the exact scan answers instead. */
    private static final int WALK_MAX = 20_000;
    /** pgvector's upper bound of hnsw.ef_search. */
    private static final int EF_SEARCH_MAX = 1_000;

    private final PgVectorStore store;
    private final String model;
    private final int exactMax;

    /** Over the default model's vectors (tests). */
    PgVectorIndex(Jdbc jdbc, int exactMax) {
        this(jdbc, EmbeddingModels.DEFAULT.name(), exactMax);
    }

    /**
     * An index over {@code model}'s vectors in a database {@link PgVectorSetup} has found ready; {@code exactMax} 0
     * always walks the graph (tests).
     */
    PgVectorIndex(Jdbc jdbc, String model, int exactMax) {
        this.store = new PgVectorStore(jdbc);
        this.model = model;
        this.exactMax = exactMax;
    }

    @Override
    public String kind() {
        return "pgvector-hnsw";
    }

    @Override
    public List<Scored> nearest(List<UUID> partitions, String surface, float[] query, int k, Candidates candidates) {
        UUID[] parts = partitions.toArray(UUID[]::new);
        PGvector q = new PGvector(query);
        return store.inTransaction(c -> {
            if (candidates instanceof Candidates.Only only && only.ids().size() <= exactMax) {
                return exact(c, parts, surface, model, q, k, Optional.of(only.ids().toArray(UUID[]::new)),
                        Candidates.all());
            }
            if (exactMax > 0 && PgVectorStore.chunksUpTo(c, parts, surface, model, exactMax + 1) <= exactMax) {
                return exact(c, parts, surface, model, q, k, Optional.empty(), candidates);
            }
            return approximate(c, parts, surface, model, q, k, candidates);
        });
    }

    /**
     * The HNSW walk: asks for twice as many chunks as entries wanted, and four times more while the
     * candidates filter leaves too few. A walk that comes back short of its LIMIT either saw the whole
     * partition (then its answer is complete) or was cut off by hnsw.max_scan_tuples, on a partition
     * that is a sliver of the table; then, as when the filter keeps too little, the exact scan answers.
     */
    private static List<Scored> approximate(Connection c, UUID[] parts, String surface, String model, PGvector q, int k,
                                            Candidates candidates) throws SQLException {
        for (int limit = 2 * k; limit <= WALK_MAX; limit *= 4) {
            List<Scored> rows = PgVectorStore.walk(c, parts, surface, model, q, limit,
                    Math.min(EF_SEARCH_MAX, Math.max(40, limit)));
            List<Scored> best = bestPerEntry(rows, candidates, Integer.MAX_VALUE);
            if (best.size() >= k) {
                return withFirstChunks(c, surface, model, q, best, k);
            }
            if (rows.size() < limit) {
                if (PgVectorStore.chunksUpTo(c, parts, surface, model, rows.size() + 1) <= rows.size()) {
                    return withFirstChunks(c, surface, model, q, best, k);
                }
                break;
            }
        }
        Optional<UUID[]> only = candidates instanceof Candidates.Only o ? Optional.of(o.ids().toArray(UUID[]::new))
                : Optional.empty();
        return exact(c, parts, surface, model, q, k, only, only.isPresent() ? Candidates.all() : candidates);
    }

    /**
     * Every entry of the partitions (of {@code ids}, when given) by exact distance ({@link PgVectorStore#exact});
     * {@code inJvm} filters what the SQL could not.
     */
    private static List<Scored> exact(Connection c, UUID[] parts, String surface, String model, PGvector q, int k,
                                      Optional<UUID[]> ids, Candidates inJvm) throws SQLException {
        boolean filtered = !(inJvm instanceof Candidates.All);
        List<Scored> rows = PgVectorStore.exact(c, parts, surface, model, q, ids.orElse(null),
                filtered ? Integer.MAX_VALUE : k);
        return bestPerEntry(rows, inJvm, k);
    }

    /**
     * The walk's entries scored as {@link JvmVectorIndex#entryScore} scores them (the mean of the first chunk's
     * similarity and the best found), their first chunks read by primary key; the best {@code k}.
     */
    private static List<Scored> withFirstChunks(Connection c, String surface, String model, PGvector q,
                                                List<Scored> best, int k) throws SQLException {
        Map<UUID, Double> first = PgVectorStore.firstChunks(c, surface, model, q,
                best.stream().map(Scored::entryId).toArray(UUID[]::new));
        List<Scored> out = new ArrayList<>();
        for (Scored s : best) {
            out.add(new Scored(s.entryId(), JvmVectorIndex.entryScore(first.getOrDefault(s.entryId(), s.score())
                    .floatValue(), (float) s.score())));
        }
        out.sort(Comparator.comparingDouble(Scored::score).reversed().thenComparing(s -> s.entryId().toString()));
        return out.size() > k ? out.subList(0, k) : out;
    }

    /** A document scores its best chunk; the best {@code k} allowed documents, best first. */
    private static List<Scored> bestPerEntry(List<Scored> chunks, Candidates candidates, int k) {
        Map<UUID, Scored> best = new LinkedHashMap<>();
        for (Scored s : chunks) {
            if (candidates.allows(s.entryId())) {
                best.merge(s.entryId(), s, (a, b) -> a.score() >= b.score() ? a : b);
            }
        }
        List<Scored> out = new ArrayList<>(best.values());
        out.sort(Comparator.comparingDouble(Scored::score).reversed().thenComparing(s -> s.entryId().toString()));
        return out.size() > k ? out.subList(0, k) : out;
    }
}
