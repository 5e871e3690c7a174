package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.Digests;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Vectors of short texts, content-addressed in PostgreSQL ({@code retrieval_text_vectors}, keyed by the
 * SHA-256 of the model and the text): a text is embedded once, by whichever replica first needs it,
 * and read back by every other replica, after a restart and after a re-ingest that left it unchanged.
 * Preparation runs on one background thread, so that embedding a large catalog never takes more than
 * one core from the requests.
 */
final class TextVectors implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(TextVectors.class.getName());
    private static final int BATCH = 32;

    private final TextVectorStore store;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().daemon().name("retrieval-text-vectors").factory());

    TextVectors(Jdbc jdbc) {
        this.store = new TextVectorStore(jdbc);
    }

    /** A set whose vectors (of {@code embedder}'s model) are read or computed in the background. */
    DenseSet prepare(String name, List<String> texts, Embedder embedder) {
        List<String> copy = List.copyOf(texts);
        AtomicInteger prepared = new AtomicInteger();
        CompletableFuture<float[][]> vectors;
        try {
            vectors = CompletableFuture.supplyAsync(() -> vectors(name, copy, prepared, embedder), worker);
        } catch (RejectedExecutionException e) { // the kernel is stopping
            vectors = CompletableFuture.failedFuture(e);
        }
        vectors.exceptionally(e -> {
            LOG.log(Level.WARNING, "retrieval: vectors for " + name + " not prepared; its searches stay lexical", e);
            return null;
        });
        return new DenseSet(copy.size(), vectors, prepared, embedder);
    }

    private float[][] vectors(String name, List<String> texts, AtomicInteger prepared, Embedder embedder) {
        long start = System.nanoTime();
        String[] keys = texts.stream().map(t -> key(embedder.model(), t)).toArray(String[]::new);
        Map<String, float[]> known = store.read(keys);
        List<Integer> missing = new ArrayList<>();
        float[][] out = new float[texts.size()][];
        for (int i = 0; i < keys.length; i++) {
            out[i] = known.get(keys[i]);
            if (out[i] == null) {
                missing.add(i);
            }
        }
        prepared.set(texts.size() - missing.size());
        for (int from = 0; from < missing.size(); from += BATCH) {
            List<Integer> batch = missing.subList(from, Math.min(missing.size(), from + BATCH));
            List<float[]> embedded = embedder.embedEach(batch.stream().map(texts::get).toList());
            for (int j = 0; j < batch.size(); j++) {
                out[batch.get(j)] = embedded.get(j);
            }
            store.write(batch.stream().map(i -> keys[i]).toList(), embedder.model().vectorKey(), embedded);
            prepared.addAndGet(batch.size());
        }
        LOG.log(Level.INFO, "retrieval: vectors for " + name + " ready (" + texts.size() + " texts, " + missing.size()
                + " embedded now) in " + (System.nanoTime() - start) / 1_000_000 + " ms");
        return out;
    }

    /** The model is part of every key: another model's vectors are never mistaken for this one's. */
    static String key(EmbeddingModels.Model model, String text) {
        return Digests.sha256Hex(model.vectorKey() + "\n" + text);
    }

    @Override
    public void close() {
        worker.shutdownNow();
    }
}
