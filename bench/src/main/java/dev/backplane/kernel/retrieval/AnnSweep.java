package dev.backplane.kernel.retrieval;

import dev.backplane.bench.KbCorpus;
import java.util.Arrays;
import java.util.Locale;

/**
 * The HNSW graph's recall against the exact scan, swept over its parameters (links per node, build beam,
 * candidates kept by a walk), on the kb bench's 100k composed vectors and its queries, in process: what
 * {@code bench/run kb} reports for the chosen parameters, for each of the others. A walk asks for the 100
 * chunks the hybrid fusion reads ({@link ScoreFusion#DOCUMENTS_DEPTH}) and recall is measured on the first 10.
 * {@code -Dsvc.bench.ann.entries=N}, {@code -Dsvc.bench.ann.queries=N}, {@code -Dsvc.bench.ann.graphs=M:BEAM,...},
 * {@code -Dsvc.bench.ann.ef=EF,...}, {@code -Dsvc.bench.ann.real=N} (the first N entries embedded for real, as
 * KbBench seeds them; default 500).
 */
public final class AnnSweep {

    private AnnSweep() {
    }

    public static void main(String[] args) {
        int entries = Integer.getInteger("svc.bench.ann.entries", 100_000);
        int queries = Integer.getInteger("svc.bench.ann.queries", 200);
        String graphs = System.getProperty("svc.bench.ann.graphs", "16:100,32:200");
        int[] efs = Arrays.stream(System.getProperty("svc.bench.ann.ef", "200,400,800").split(","))
                .mapToInt(Integer::parseInt).toArray();
        int depth = ScoreFusion.DOCUMENTS_DEPTH;
        Embedder embedder = new Embedder();
        KbCorpus.Vocabulary vocabulary = KbCorpus.Vocabulary.embed(embedder);
        float[][] vectors = new float[entries][];
        // as KbBench seeds them: the first entries keep the real embedding of their text, the others are composed
        int real = Integer.getInteger("svc.bench.ann.real", 500);
        for (int i = 0; i < entries; i++) {
            vectors[i] = i < real ? embedder.embedChunks(KbCorpus.slug(i).replace('-', ' ') + "\n" + KbCorpus.body(i))
                    .getFirst() : vocabulary.vector(i);
        }
        for (int i = 0; i < Integer.getInteger("svc.bench.ann.skip", 1_000); i++) {
            KbCorpus.query(i); // KbBench measures recall after about this many queries: the same kind of query
        }
        float[][] asked = new float[queries][];
        int[][] exact = new int[queries][];
        long scanNanos = 0;
        for (int q = 0; q < queries; q++) {
            asked[q] = embedder.embedQuery(KbCorpus.query(q));
            long t0 = System.nanoTime();
            exact[q] = top(vectors, asked[q], 10);
            scanNanos += System.nanoTime() - t0;
        }
        System.out.printf(Locale.ROOT, "%,d vectors, %d queries; exact scan (one thread) mean %.2f ms%n", entries, queries,
                scanNanos / 1e6 / queries);
        for (String graph : graphs.split(",")) {
            int maxConn = Integer.parseInt(graph.split(":")[0]);
            int beam = Integer.parseInt(graph.split(":")[1]);
            long t0 = System.nanoTime();
            AnnGraph ann = AnnGraph.buildNow(vectors, maxConn, beam);
            System.out.printf(Locale.ROOT, "graph M=%d beam=%d: built in %.1f s%n", maxConn, beam,
                    (System.nanoTime() - t0) / 1e9);
            // the engine's own path: VectorScan's walk of a slice (one chunk per entry) against its exact scan
            java.util.UUID[] ids = new java.util.UUID[entries];
            int[] rowEntry = new int[entries];
            for (int i = 0; i < entries; i++) {
                ids[i] = new java.util.UUID(0, i);
                rowEntry[i] = i;
            }
            VectorSlice walked = new VectorSlice(ids, rowEntry, rowEntry, vectors, java.util.Set.of(), java.util.Map.of(), ann);
            VectorSlice scanned = new VectorSlice(ids, rowEntry, rowEntry, vectors, java.util.Set.of(), java.util.Map.of(),
                    null);
            double viaScan = 0;
            for (int q = 0; q < queries; q++) {
                java.util.List<java.util.UUID> a = VectorScan.nearest(walked, asked[q], depth, new Candidates.All()).stream()
                        .limit(10).map(VectorIndex.Scored::entryId).toList();
                java.util.List<java.util.UUID> b = VectorScan.nearest(scanned, asked[q], depth, new Candidates.All()).stream()
                        .limit(10).map(VectorIndex.Scored::entryId).toList();
                viaScan += a.stream().filter(b::contains).count() / 10.0;
            }
            System.out.printf(Locale.ROOT, "  VectorScan walk vs scan, k=%d: recall@10 %.3f%n", depth, viaScan / queries);
            for (int ef : efs) {
                double recall = 0;
                long[] nanos = new long[queries];
                for (int pass = 0; pass < 2; pass++) { // the first pass warms up
                    recall = 0;
                    for (int q = 0; q < queries; q++) {
                        long s = System.nanoTime();
                        int[] found = ann.nearest(asked[q], depth, ef, null, entries);
                        nanos[q] = System.nanoTime() - s;
                        int hits = 0;
                        for (int i = 0; i < Math.min(10, found.length); i++) {
                            for (int e : exact[q]) {
                                hits += found[i] == e ? 1 : 0;
                            }
                        }
                        recall += hits / 10.0;
                    }
                }
                if (Boolean.getBoolean("svc.bench.smoke") && recall / queries < 0.5) {
                    throw new IllegalStateException("recall@10 " + recall / queries + ": the graph does not find its way");
                }
                Arrays.sort(nanos);
                System.out.printf(Locale.ROOT, "  ef=%4d: recall@10 %.3f, walk p50 %.2f / p95 %.2f ms%n", ef,
                        recall / queries, nanos[queries / 2] / 1e6, nanos[queries * 95 / 100] / 1e6);
            }
        }
    }

    private static int[] top(float[][] vectors, float[] query, int k) {
        int[] best = new int[k];
        float[] scores = new float[k];
        Arrays.fill(scores, -2);
        for (int r = 0; r < vectors.length; r++) {
            float s = JvmVectorIndex.dot(query, vectors[r]);
            if (s > scores[k - 1]) {
                int at = k - 1;
                while (at > 0 && scores[at - 1] < s) {
                    scores[at] = scores[at - 1];
                    best[at] = best[at - 1];
                    at--;
                }
                scores[at] = s;
                best[at] = r;
            }
        }
        return best;
    }
}
