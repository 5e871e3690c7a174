package dev.backplane.kernel.retrieval;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;

/**
 * The vectors of a small corpus held in memory — one text per item, items numbered by their place in
 * the list the set was made from (operation search: one text per operation of a connector). The
 * vectors arrive in the background ({@link TextVectors}); until they have, the set is not ready and
 * searches rank lexically only.
 */
public final class DenseSet {

    /** An item (its index in the corpus) and its cosine to the query. */
    public record Scored(int item, double score) {
    }

    private final int size;
    private final CompletableFuture<float[][]> vectors;
    private final AtomicInteger prepared;
    private final Embedder embedder;

    /** @param embedder the model the vectors are of: a query is embedded by the same one */
    DenseSet(int size, CompletableFuture<float[][]> vectors, AtomicInteger prepared, Embedder embedder) {
        this.size = size;
        this.vectors = vectors;
        this.prepared = prepared;
        this.embedder = embedder;
    }

    /** The model the set's vectors are of. */
    Embedder embedder() {
        return embedder;
    }

    public int size() {
        return size;
    }

    /** How many of the items have their vector so far (read back or embedded): progress while not ready. */
    public int prepared() {
        return ready() ? size : Math.min(size, prepared.get());
    }

    /** Whether the vectors are in (a failed preparation is never ready; it was logged). */
    public boolean ready() {
        return vectors.isDone() && !vectors.isCompletedExceptionally();
    }

    /** Whether preparing the vectors failed (a new set retries). */
    public boolean failed() {
        return vectors.isCompletedExceptionally();
    }

    /** Waits up to {@code millis} for the vectors; whether they are in. */
    public boolean await(long millis) {
        try {
            vectors.get(millis, TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The {@code k} allowed items nearest to {@code query}, best first; empty while not ready. */
    public List<Scored> nearest(float[] query, int k, IntPredicate allowed) {
        if (!ready()) {
            return List.of();
        }
        float[][] v = vectors.join();
        PriorityQueue<Scored> top = new PriorityQueue<>(k + 1, Comparator.comparingDouble(Scored::score));
        for (int i = 0; i < v.length; i++) {
            if (allowed.test(i)) {
                double s = JvmVectorIndex.dot(query, v[i]);
                if (top.size() < k || s > top.peek().score()) {
                    top.add(new Scored(i, s));
                    if (top.size() > k) {
                        top.poll();
                    }
                }
            }
        }
        List<Scored> out = new ArrayList<>(top);
        out.sort(Comparator.comparingDouble(Scored::score).reversed().thenComparingInt(Scored::item));
        return out;
    }
}
