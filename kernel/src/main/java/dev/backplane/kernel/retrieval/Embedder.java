package dev.backplane.kernel.retrieval;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import java.util.ArrayList;
import java.util.List;

/**
 * One of {@link EmbeddingModels} (ONNX, from the model jar; no network) in process. Long bodies are cut
 * into overlapping word windows, each embedded; vectors are L2-normalised so cosine is a dot product.
 * Queries and passages get the prefixes the model's authors trained it with.
 */
public final class Embedder {

    private final EmbeddingModels.Model spec;

    /** The default model ({@link EmbeddingModels#DEFAULT}). */
    public Embedder() {
        this(EmbeddingModels.DEFAULT);
    }

    public Embedder(EmbeddingModels.Model spec) {
        this.spec = spec;
    }

    /** Which model this is. */
    public EmbeddingModels.Model model() {
        return spec;
    }

    /** Words per chunk and overlap: the model reads 256 word pieces, roughly 180 words. */
    static final int CHUNK_WORDS = 160;
    static final int OVERLAP_WORDS = 40;

    /** Loaded on first use, not at kernel start: a kernel that never searches never pays for the model. */
    private volatile EmbeddingModel model;

    private EmbeddingModel onnx() {
        EmbeddingModel m = model;
        if (m == null) {
            synchronized (this) {
                m = model;
                if (m == null) {
                    m = spec.load();
                    model = m;
                }
            }
        }
        return m;
    }

    public int dimension() {
        return 384;
    }

    /**
     * Recent query vectors: agents repeat queries, and a query's embedding is most of a short search.
     * Kept per tenant, so that how fast a search answers never tells one tenant what another searched.
     */
    private final com.github.benmanes.caffeine.cache.Cache<QueryKey, float[]> queries =
            com.github.benmanes.caffeine.cache.Caffeine.newBuilder().maximumSize(QUERY_CACHE).build();
    static final int QUERY_CACHE = 4_096;

    private record QueryKey(java.util.UUID tenant, String text) {
    }

    /** One text embedded as it is, no prefix (the kb bench composes vectors from phrases this way). */
    public float[] embed(String text) {
        return normalized(onnx().embed(text).content().vector());
    }

    /** A query's vector, with the model's query prefix (uncached). */
    public float[] embedQuery(String text) {
        return embed(spec.queryPrefix() + text);
    }

    /** A tenant's query's vector (cached for that tenant; callers must not modify it). */
    public float[] embedQuery(java.util.UUID tenant, String text) {
        return queries.get(new QueryKey(tenant, text), k -> embedQuery(k.text()));
    }

    /** One vector per text, each text embedded whole (short texts: operation descriptions). */
    public List<float[]> embedEach(List<String> texts) {
        List<float[]> out = new ArrayList<>();
        onnx().embedAll(texts.stream().map(t -> TextSegment.from(spec.passagePrefix() + (t.isBlank() ? " " : t)))
                        .toList()).content()
                .forEach(e -> out.add(normalized(e.vector())));
        return out;
    }

    /** One vector per chunk of {@code text}. */
    public List<float[]> embedChunks(String text) {
        List<String> chunks = chunks(text);
        List<TextSegment> segments = chunks.stream().map(c -> TextSegment.from(spec.passagePrefix() + c)).toList();
        List<float[]> out = new ArrayList<>();
        onnx().embedAll(segments).content().forEach(e -> out.add(normalized(e.vector())));
        return out;
    }

    static List<String> chunks(String text) {
        String[] words = text.strip().split("\\s+");
        if (words.length <= CHUNK_WORDS) {
            return List.of(text.strip().isEmpty() ? " " : text.strip());
        }
        List<String> out = new ArrayList<>();
        for (int start = 0; start < words.length; start += CHUNK_WORDS - OVERLAP_WORDS) {
            int end = Math.min(words.length, start + CHUNK_WORDS);
            out.add(String.join(" ", java.util.Arrays.copyOfRange(words, start, end)));
            if (end == words.length) {
                break;
            }
        }
        return out;
    }

    static float[] normalized(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        norm = Math.sqrt(norm);
        if (norm == 0) {
            return v;
        }
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (float) (v[i] / norm);
        }
        return out;
    }
}
