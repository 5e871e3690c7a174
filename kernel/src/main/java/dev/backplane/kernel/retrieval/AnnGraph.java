package dev.backplane.kernel.retrieval;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;
import org.apache.lucene.search.KnnCollector;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.hnsw.HnswGraphBuilder;
import org.apache.lucene.util.hnsw.HnswGraphSearcher;
import org.apache.lucene.util.hnsw.OnHeapHnswGraph;
import org.apache.lucene.util.hnsw.RandomVectorScorerSupplier;
import org.apache.lucene.util.hnsw.UpdateableRandomVectorScorer;

/**
 * An approximate nearest-neighbour graph (Apache Lucene's HNSW) over the chunk vectors of one large
 * slice of {@link JvmVectorIndex}, so that a search visits a few thousand chunks instead of reading all
 * of them (100k chunks are 150 MB per exact scan). Node {@code r} is row {@code r} of the slice: the
 * graph is built over the slice's own vectors, so it adds only its links to the heap, not a second
 * (or quantised) copy of them, and its scores are the exact cosines.
 *
 * <p>The graph is built in the background, one slice at a time on one thread (a build of 100k chunks
 * takes tens of seconds and must not starve searches); until it is in, the slice is scanned exactly,
 * as before. A slice changed since it was read keeps its graph: its replaced rows are filtered out
 * and its changed entries scanned exactly beside it (see {@link JvmVectorIndex}).
 */
final class AnnGraph {

    /**
     * Links per node and the build's beam width. Lucene's defaults (16, 100) found 0.81 of the exact top 10 on the kb
     * bench's 100k entries (500 of them embedded for real, the rest composed: two populations, as a real corpus
     * has clusters); 32 and 200 find 0.985 with the same walk, whose p50 goes from 1.1 to 1.8 ms, for twice the build
     * time and 256 more bytes of links per chunk (AnnSweep in bench/, results/kb.md).
     */
    static final int MAX_CONN = 32;
    static final int BEAM_WIDTH = 200;
    /** A fixed seed: the same slice gives the same graph (and the same answers) on every replica. */
    private static final long SEED = 42;

    private static final System.Logger LOG = System.getLogger(AnnGraph.class.getName());
    private static final ExecutorService BUILDER = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().name("retrieval-hnsw-build").daemon().factory());
    /** Graphs queued or being built in this JVM (a gauge: large slices still answered by exact scan). */
    private static final AtomicInteger BUILDING = new AtomicInteger();

    private final float[][] vectors;
    private final CompletableFuture<OnHeapHnswGraph> graph;

    private AnnGraph(float[][] vectors, CompletableFuture<OnHeapHnswGraph> graph) {
        this.vectors = vectors;
        this.graph = graph;
    }

    /** Starts building the graph of {@code vectors} (unit vectors, one per row) in the background. */
    static AnnGraph buildInBackground(float[][] vectors) {
        BUILDING.incrementAndGet();
        CompletableFuture<OnHeapHnswGraph> graph = CompletableFuture.supplyAsync(() -> build(vectors), BUILDER);
        graph.whenComplete((built, failed) -> BUILDING.decrementAndGet());
        return new AnnGraph(vectors, graph);
    }

    /** How many graphs are queued or being built in this JVM now. */
    static int building() {
        return BUILDING.get();
    }

    /** Builds the graph on the calling thread (tests). */
    static AnnGraph buildNow(float[][] vectors) {
        return buildNow(vectors, MAX_CONN, BEAM_WIDTH);
    }

    /** Builds the graph on the calling thread with other parameters (tests, the recall sweep in bench/). */
    static AnnGraph buildNow(float[][] vectors, int maxConn, int beamWidth) {
        return new AnnGraph(vectors, CompletableFuture.completedFuture(build(vectors, maxConn, beamWidth)));
    }

    private static OnHeapHnswGraph build(float[][] vectors) {
        return build(vectors, MAX_CONN, BEAM_WIDTH);
    }

    private static OnHeapHnswGraph build(float[][] vectors, int maxConn, int beamWidth) {
        long t0 = System.nanoTime();
        int rows = vectors.length;
        try {
            OnHeapHnswGraph built = HnswGraphBuilder.create(new Scorers(vectors), maxConn, beamWidth, SEED).build(rows);
            LOG.log(Level.INFO, () -> "retrieval: HNSW graph of " + rows + " chunks built in "
                    + (System.nanoTime() - t0) / 1_000_000 + " ms");
            return built;
        } catch (IOException e) {
            throw new UncheckedIOException(e); // the scorers read the heap; Lucene's signatures declare it
        } catch (RuntimeException | Error e) {
            LOG.log(Level.WARNING, "retrieval: HNSW graph of " + rows + " chunks failed; the slice stays scanned exactly",
                    e);
            throw e;
        }
    }

    /** Whether the graph is built (a failed build never is; the slice is then scanned exactly). */
    boolean ready() {
        return graph.isDone() && !graph.isCompletedExceptionally();
    }

    /** About how many bytes of heap the graph's links take (its nodes' neighbour arrays and level lists). */
    static long bytes(int rows) {
        return rows * (2L * MAX_CONN * 8 + 96);
    }

    /**
     * The rows of up to {@code n} accepted chunks nearest to {@code query}, best first — or null when the
     * graph is not built yet or when the walk would visit more nodes than there are accepted rows (a
     * narrow filter: then an exact scan of those rows is both cheaper and exact, as Lucene's own
     * filtered kNN query decides).
     *
     * @param ef how many candidates the walk keeps (≥ n; more finds the true neighbours more often)
     */
    int[] nearest(float[] query, int n, int ef, IntPredicate accepted, int acceptedRows) {
        if (!ready()) {
            return null;
        }
        Bits accept = accepted == null ? null : new Bits() {
            @Override
            public boolean get(int row) {
                return accepted.test(row);
            }

            @Override
            public int length() {
                return vectors.length;
            }
        };
        KnnCollector found;
        try {
            found = HnswGraphSearcher.search(new RowScorer(vectors, query), Math.max(n, ef),
                    graph.join(), accept, accepted == null ? Integer.MAX_VALUE : acceptedRows);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (found.earlyTerminated()) {
            return null;
        }
        ScoreDoc[] docs = found.topDocs().scoreDocs;
        int[] out = new int[Math.min(n, docs.length)];
        for (int i = 0; i < out.length; i++) {
            out[i] = docs[i].doc;
        }
        return out;
    }

    /** Lucene's score of a cosine: in [0, 1], higher is nearer, the same order as the cosine. */
    private static float score(float cosine) {
        return Math.max(0f, (1f + cosine) / 2f);
    }

    /**
     * Scores the rows' vectors against one vector: a query's, or in the graph builder the row being
     * inserted ({@link #setScoringOrdinal}).
     */
    private static final class RowScorer implements UpdateableRandomVectorScorer {
        private final float[][] vectors;
        private float[] from;

        RowScorer(float[][] vectors, float[] from) {
            this.vectors = vectors;
            this.from = from;
        }

        @Override
        public void setScoringOrdinal(int node) {
            from = vectors[node];
        }

        @Override
        public float score(int node) {
            return AnnGraph.score(JvmVectorIndex.dot(from, vectors[node]));
        }

        @Override
        public int maxOrd() {
            return vectors.length;
        }
    }

    /** What the graph builder scores with: one row against the others. */
    private record Scorers(float[][] vectors) implements RandomVectorScorerSupplier {
        @Override
        public UpdateableRandomVectorScorer scorer() {
            return new RowScorer(vectors, null);
        }

        @Override
        public RandomVectorScorerSupplier copy() {
            return this;
        }
    }
}
