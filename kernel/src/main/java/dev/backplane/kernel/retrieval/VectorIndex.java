package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import io.micrometer.core.instrument.MeterRegistry;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Where the chunk vectors of {@code retrieval_chunks} are searched (ARCHITECTURE §8): with the
 * {@code vector} extension, pgvector's HNSW index in PostgreSQL; without it, an exact cosine scan in
 * the JVM. The choice is made once, at start-up; both answer the same questions the same way. The
 * engine writes the rows ({@link ChunkStore}) and announces each write on the change feed.
 */
sealed interface VectorIndex permits JvmVectorIndex, PgVectorIndex {

    /** A document's best chunk similarity (cosine). */
    record Scored(UUID entryId, double score) {
    }

    /**
     * Which path serves searches, as /api/v1/info shows it: {@code pgvector-hnsw}, {@code jvm-hnsw} (exact
     * scans of small slices, HNSW graphs for large ones) or {@code jvm-exact}.
     */
    String kind();

    /** Drops what it holds and stops following the change feed (after the embedding model changed). */
    default void close() {
    }

    /**
     * The {@code k} entries of the given partitions (tenants; memory adds the caller's user partition)
     * whose best chunk is nearest to {@code query}, best first, restricted to {@code candidates}.
     */
    List<Scored> nearest(List<UUID> partitions, String surface, float[] query, int k, Candidates candidates);

    /**
     * As {@link #nearest} when the partitions' vectors can be searched without a long wait, empty otherwise: a
     * large JVM slice not held yet is read in the background meanwhile (pgvector always answers).
     */
    default Optional<List<Scored>> nearestIfReady(List<UUID> partitions, String surface, float[] query, int k,
                                                  Candidates candidates) {
        return Optional.of(nearest(partitions, surface, query, k, candidates));
    }

    /** Starts reading a partition's vectors in the background, if this index holds any in memory. */
    default void startWarming(UUID partition, String surface) {
    }

    /**
     * Whether searches of a partition's surface are served at full speed now: a JVM slice is held and its
     * graph (if it gets one) is built. pgvector is always warm.
     */
    default boolean warm(UUID partition, String surface) {
        return true;
    }

    /** Reports what the index holds in memory, if anything. */
    default void meterInto(MeterRegistry registry) {
    }

    /** Takes back what {@link #meterInto} registered (an index a model change replaced). */
    default void meterOutOf(MeterRegistry registry) {
    }

    /** pgvector when the extension can be used, the JVM index otherwise; says which in the log. */
    static VectorIndex choose(Jdbc jdbc, ChangeFeed feed, int dimension, String model) {
        System.Logger log = System.getLogger(VectorIndex.class.getName());
        PgVectorSetup.Setup setup = PgVectorSetup.setUp(jdbc, dimension);
        return switch (setup) {
            case PgVectorSetup.Ready ready -> {
                log.log(Level.INFO, "retrieval: pgvector " + ready.version() + " present; nearest neighbours from its "
                        + "HNSW index (retrieval_chunks.embedding_v, vector_cosine_ops)");
                yield ready.index(model);
            }
            case PgVectorSetup.Unavailable why -> {
                log.log(Level.INFO, "retrieval: pgvector not used (" + why.reason() + "); nearest neighbours in the JVM "
                        + "(exact scans, HNSW graphs for slices of " + JvmVectorIndex.ANN_MIN_CHUNKS + "+ chunks)");
                yield new JvmVectorIndex(jdbc, feed, model, JvmVectorIndex.ANN_MIN_CHUNKS);
            }
        };
    }
}
