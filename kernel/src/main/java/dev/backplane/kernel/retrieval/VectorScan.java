package dev.backplane.kernel.retrieval;

import static dev.backplane.kernel.retrieval.JvmVectorIndex.dot;
import static dev.backplane.kernel.retrieval.JvmVectorIndex.entryScore;

import dev.backplane.kernel.retrieval.VectorIndex.Scored;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.UUID;
import java.util.stream.IntStream;

/**
 * The search of held {@link VectorSlice}s: a walk of the slice's HNSW graph once it is in, an exact scan
 * otherwise (a large slice on every core), and the entries changed since the read scored on their own.
 */
final class VectorScan {

    /** Below this many chunks one thread scans faster than a fork and join. */
    static final int PARALLEL_MIN_CHUNKS = 20_000;
    /** A walk keeps this many times the chunks it is asked for as candidates (recall against latency). */
    static final int EF_FACTOR = 2;
    /** Below any cosine: an entry with no allowed chunk in the rows scanned. */
    private static final float NONE = -2;

    private VectorScan() {
    }

    /** The {@code k} best entries over all {@code searched} slices, best first. */
    static List<Scored> nearest(List<VectorSlice> searched, float[] query, int k, Candidates candidates) {
        List<Scored> all = new ArrayList<>();
        for (VectorSlice slice : searched) {
            all.addAll(nearest(slice, query, k, candidates));
        }
        all.sort(Comparator.comparingDouble(Scored::score).reversed());
        return all.size() > k ? all.subList(0, k) : all;
    }

    static List<Scored> nearest(VectorSlice slice, float[] query, int k, Candidates candidates) {
        PriorityQueue<Scored> top = new PriorityQueue<>(k + 1, Comparator.comparingDouble(Scored::score));
        boolean[] allowed = allowed(slice, candidates);
        float[] best = slice.ann() != null && slice.ann().ready() ? walk(slice, query, k, allowed) : null;
        if (best == null) {
            best = scan(slice, query, allowed);
        }
        for (int e = 0; e < best.length; e++) {
            if (best[e] > NONE && (top.size() < k || best[e] > top.peek().score())) {
                top.add(new Scored(slice.entries()[e], best[e]));
                if (top.size() > k) {
                    top.poll();
                }
            }
        }
        slice.changed().forEach((entry, chunks) -> {
            if (chunks.length > 0 && candidates.allows(entry)) {
                float bestChunk = NONE;
                for (float[] chunk : chunks) {
                    bestChunk = Math.max(bestChunk, dot(query, chunk));
                }
                float score = entryScore(dot(query, chunks[0]), bestChunk);
                if (top.size() < k || score > top.peek().score()) {
                    top.add(new Scored(entry, score));
                    if (top.size() > k) {
                        top.poll();
                    }
                }
            }
        });
        List<Scored> out = new ArrayList<>(top);
        out.sort(Comparator.comparingDouble(Scored::score).reversed());
        return out;
    }

    /** Which base entries a search may return (null: all), the replaced ones never. */
    static boolean[] allowed(VectorSlice slice, Candidates candidates) {
        boolean[] allowed = null;
        if (!(candidates instanceof Candidates.All) || !slice.replaced().isEmpty()) {
            allowed = new boolean[slice.entries().length];
            for (int e = 0; e < allowed.length; e++) {
                UUID entry = slice.entries()[e];
                allowed[e] = candidates.allows(entry) && !slice.replaced().contains(entry);
            }
        }
        return allowed;
    }

    /**
     * Each entry's best chunk similarity among the chunks a walk of the slice's graph finds nearest (NONE
     * for the others); null when the graph declines (a filter leaving fewer chunks than the walk would visit).
     * It asks for enough chunks to cover {@code k} entries at the slice's mean chunks per entry.
     */
    private static float[] walk(VectorSlice slice, float[] query, int k, boolean[] allowed) {
        int rows = slice.rows();
        int[] rowEntry = slice.rowEntry();
        int acceptedRows = rows;
        if (allowed != null) {
            acceptedRows = 0;
            for (int r = 0; r < rows; r++) {
                if (allowed[rowEntry[r]]) {
                    acceptedRows++;
                }
            }
        }
        int perEntry = Math.max(1, (rows + slice.entries().length - 1) / Math.max(1, slice.entries().length));
        int n = Math.min(rows, k * perEntry);
        int[] found = slice.ann().nearest(query, n, n * EF_FACTOR, allowed == null ? null : r -> allowed[rowEntry[r]],
                acceptedRows);
        if (found == null) {
            return null;
        }
        float[] best = new float[slice.entries().length];
        Arrays.fill(best, NONE);
        for (int r : found) {
            int e = rowEntry[r];
            best[e] = Math.max(best[e], dot(query, slice.vectors()[r]));
        }
        for (int e = 0; e < best.length; e++) {
            if (best[e] > NONE) {
                int first = slice.firstRow()[e];
                best[e] = entryScore(first == VectorSlice.NO_ROW ? best[e] : dot(query, slice.vectors()[first]), best[e]);
            }
        }
        return best;
    }

    /** Each entry's score ({@link JvmVectorIndex#entryScore}) over all rows, a large slice on every core. */
    private static float[] scan(VectorSlice slice, float[] query, boolean[] allowed) {
        int rows = slice.rows();
        int n = slice.entries().length;
        int parts = rows < PARALLEL_MIN_CHUNKS ? 1 : Runtime.getRuntime().availableProcessors();
        boolean[] only = allowed;
        float[] bestAndFirst = IntStream.range(0, parts).parallel()
                .mapToObj(p -> scan(slice, query, only, (int) ((long) rows * p / parts), (int) ((long) rows * (p + 1) / parts)))
                .reduce((a, b) -> {
                    for (int i = 0; i < a.length; i++) {
                        a[i] = Math.max(a[i], b[i]);
                    }
                    return a;
                }).orElseGet(() -> new float[2 * n]);
        float[] scores = new float[n];
        for (int e = 0; e < n; e++) {
            float best = bestAndFirst[e];
            float first = bestAndFirst[n + e];
            scores[e] = best == NONE ? NONE : entryScore(first == NONE ? best : first, best);
        }
        return scores;
    }

    /**
     * Each entry's best chunk similarity over rows {@code from .. to-1} at {@code [e]}, its first chunk's at
     * {@code [n + e]} when that row is among them (NONE where it has none there).
     */
    private static float[] scan(VectorSlice slice, float[] query, boolean[] allowed, int from, int to) {
        int n = slice.entries().length;
        float[] bestAndFirst = new float[2 * n];
        Arrays.fill(bestAndFirst, NONE);
        int[] rowEntry = slice.rowEntry();
        int[] firstRow = slice.firstRow();
        float[][] vectors = slice.vectors();
        for (int r = from; r < to; r++) {
            int e = rowEntry[r];
            if (allowed == null || allowed[e]) {
                float similarity = dot(query, vectors[r]);
                bestAndFirst[e] = Math.max(bestAndFirst[e], similarity);
                if (firstRow[e] == r) {
                    bestAndFirst[n + e] = similarity;
                }
            }
        }
        return bestAndFirst;
    }
}
