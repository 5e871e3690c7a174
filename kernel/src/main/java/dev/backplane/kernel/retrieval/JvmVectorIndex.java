package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.lucene.util.VectorUtil;

/**
 * Nearest neighbours over a partition's chunks, held in memory per (partition, surface):
 * read from {@code retrieval_chunks} on first use ({@link VectorChunkStore}) and then kept current entry by
 * entry from the change feed ({@link SliceCache}: a write re-reads that entry's chunks, not the partition);
 * while the feed is down every search reads the chunks afresh.
 * A small slice is scanned exactly; a slice of at least
 * {@code annMinChunks} chunks also gets an HNSW graph ({@link AnnGraph}, built in the background) and,
 * once it is in, is searched by walking the graph (an exact scan is bound by memory bandwidth: 100k
 * chunks are 150 MB per search). Until then, or when a filter leaves too few chunks for a walk, a large
 * slice is scanned exactly on every core ({@link VectorScan}).
 */
final class JvmVectorIndex implements VectorIndex {

    /** The {@code cache} tag of the slice cache's series. */
    private static final String METERED_AS = "retrieval.vector.slices";
    /**
     * Slices of at least this many chunks get an HNSW graph: below it an exact scan takes a few
     * milliseconds and a graph would only cost memory and a build.
     */
    static final int ANN_MIN_CHUNKS = 20_000;
    private final int annMinChunks;
    private final SliceCache<VectorSlice> slices;

    /** The default model's vectors (tests). */
    JvmVectorIndex(Jdbc jdbc, ChangeFeed feed) {
        this(jdbc, feed, EmbeddingModels.DEFAULT.name(), ANN_MIN_CHUNKS);
    }

    /** The default model's vectors (tests). */
    JvmVectorIndex(Jdbc jdbc, ChangeFeed feed, int annMinChunks) {
        this(jdbc, feed, EmbeddingModels.DEFAULT.name(), annMinChunks);
    }

    /**
     * @param model whose vectors it reads
     * @param annMinChunks slices of at least this many chunks get a graph ({@link Integer#MAX_VALUE}: none)
     */
    JvmVectorIndex(Jdbc jdbc, ChangeFeed feed, String model, int annMinChunks) {
        VectorChunkStore store = new VectorChunkStore(jdbc, model);
        this.annMinChunks = annMinChunks;
        this.slices = new SliceCache<>(feed, new SliceSource<>() {
            @Override
            public VectorSlice load(UUID partition, String surface) {
                return store.load(partition, surface);
            }

            @Override
            public VectorSlice hold(VectorSlice s) {
                return s.held(annMinChunks);
            }

            @Override
            public VectorSlice patch(UUID partition, String surface, VectorSlice slice, Set<UUID> changed) {
                return slice.with(changed, store.chunks(partition, surface, changed));
            }

            @Override
            public boolean stale(VectorSlice patched) {
                return patched.stale();
            }

            @Override
            public long bytes(VectorSlice s) {
                return s.bytes();
            }

            @Override
            public long rows(UUID partition, String surface) {
                return store.rows(partition, surface);
            }
        });
    }

    @Override
    public void close() {
        slices.close();
    }

    @Override
    public String kind() {
        return annMinChunks == Integer.MAX_VALUE ? "jvm-exact" : "jvm-hnsw";
    }

    @Override
    public boolean warm(UUID partition, String surface) {
        VectorSlice held = slices.held(partition, surface);
        return held != null && held.warm();
    }

    @Override
    public Optional<List<Scored>> nearestIfReady(List<UUID> partitions, String surface, float[] query, int k,
                                                 Candidates candidates) {
        List<VectorSlice> ready = new ArrayList<>();
        for (UUID partition : partitions.stream().distinct().toList()) {
            Optional<VectorSlice> slice = slices.ifReady(partition, surface);
            if (slice.isEmpty()) {
                return Optional.empty();
            }
            ready.add(slice.get());
        }
        return Optional.of(VectorScan.nearest(ready, query, k, candidates));
    }

    @Override
    public void startWarming(UUID partition, String surface) {
        slices.warm(partition, surface);
    }

    @Override
    public void meterOutOf(MeterRegistry registry) {
        slices.meterOutOf(registry, METERED_AS);
    }

    @Override
    public void meterInto(MeterRegistry registry) {
        slices.meterInto(registry, METERED_AS);
        Gauge.builder("svc.retrieval.graphs.building", AnnGraph::building)
                .description("HNSW graphs queued or being built; their slices are scanned exactly meanwhile")
                .register(registry);
    }

    @Override
    public List<Scored> nearest(List<UUID> partitions, String surface, float[] query, int k, Candidates candidates) {
        return VectorScan.nearest(partitions.stream().distinct().map(p -> slices.current(p, surface)).toList(), query, k,
                candidates);
    }

    /**
     * An entry's dense score: the mean of its first chunk's similarity and its best chunk's. The first chunk
     * (title and opening) says what the entry is about; the best lets a long entry be found by a later
     * section. The best chunk alone let fragments of long entries outrank whole matching ones: BEIR
     * ArguAna (all 1,406 queries, 3,877 of 8,674 arguments longer than one chunk) scores nDCG@10 0.466 by
     * the best chunk, 0.489 by the first chunk alone, 0.489 by this mean, and 0.455 by the mean vector.
     */
    static float entryScore(float first, float best) {
        return (first + best) / 2;
    }

    /**
     * Dot product (the cosine of unit vectors) through Lucene's {@link VectorUtil}: SIMD through the Vector
     * API when the JVM runs with {@code --add-modules jdk.incubator.vector} (the launchers do), a plain
     * loop otherwise.
     */
    static float dot(float[] q, float[] v) {
        return VectorUtil.dotProduct(q, v);
    }
}
