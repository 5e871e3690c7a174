package dev.backplane.kernel.retrieval;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sentence-embedding models retrieval can run in process: ONNX models packed in LangChain4j's model jars
 * (no network, no GPU), all of 384 dimensions. Which one a deployment runs is the {@code retrieval.model}
 * setting; a model whose jar is not on the class path is named in a clear error. {@code bench/run arguana}
 * measures each of them (quality on BEIR ArguAna, query latency, indexing rate).
 */
public final class EmbeddingModels {

    /**
     * One model: its setting name, its class in the model jar, what its authors prefix to queries and to passages
     * (E5 was trained with "query: " and "passage: "; BGE v1.5 recommends an instruction for short queries
     * looking for passages), its vectors' key in {@code retrieval_text_vectors}, its dense leg's share in the
     * fusion of kb and memory searches ({@link ScoreFusion}): how far the model's similarities can be trusted over
     * BM25's word matches, measured for each model on BEIR ArguAna (a model whose dense ranking is far better than
     * BM25's weighs more; docs/guide/memory-and-kb.md, Fusion), and its files in the jar ({@code file}.onnx and
     * {@code file}-tokenizer.json) with the pooling the jar's own class applies to them.
     */
    public record Model(String name, String className, String queryPrefix, String passagePrefix, String vectorKey,
                        double fusionDenseWeight, String file, PoolingMode pooling) {

        /**
         * The model, loaded once per JVM (its ONNX file: tens of MB, a second or two) into an ONNX Runtime session of
         * one intra-op thread. A search embeds one short query, so splitting that work across threads gains little
         * (1.7 against 2.0 ms), while the runtime's default thread pool spins between runs: under four concurrent
         * searches on two cores its extra thread burned half a core, and one thread per run embedded 34 % more
         * queries per second with 25 % less CPU each (issue 49, target 3). Several texts at once (a long entry's
         * chunks) still run in parallel, one per thread of LangChain4j's executor.
         */
        EmbeddingModel load() {
            if (!available()) {
                throw new IllegalStateException("the embedding model " + name + " is not on the class path (its jar, "
                        + "dev.langchain4j:langchain4j-embeddings-" + name + ", is not installed)");
            }
            return LOADED.computeIfAbsent(name, n -> session(this));
        }

        /** Whether its jar is on the class path. */
        public boolean available() {
            try {
                Class.forName(className, false, EmbeddingModels.class.getClassLoader());
                return true;
            } catch (ClassNotFoundException e) {
                return false;
            }
        }
    }

    private static final String ONNX = "dev.langchain4j.model.embedding.onnx.";
    private static final Map<String, EmbeddingModel> LOADED = new ConcurrentHashMap<>();

    private static EmbeddingModel session(Model model) {
        try {
            ClassLoader jar = Class.forName(model.className()).getClassLoader();
            byte[] onnx;
            try (InputStream in = resource(jar, model.file() + ".onnx")) {
                onnx = in.readAllBytes();
            }
            OrtEnvironment environment = OrtEnvironment.getEnvironment();
            OrtSession.SessionOptions options = new OrtSession.SessionOptions();
            options.setIntraOpNumThreads(1);
            OrtSession session = environment.createSession(onnx, options);
            try (InputStream tokenizer = resource(jar, model.file() + "-tokenizer.json")) {
                OnnxBertBiEncoder encoder = new OnnxBertBiEncoder(environment, session, tokenizer, model.pooling());
                return new InProcess(encoder);
            }
        } catch (ReflectiveOperationException | IOException | OrtException | RuntimeException e) {
            throw new IllegalStateException("the embedding model " + model.name() + " cannot be loaded: " + e, e);
        }
    }

    private static InputStream resource(ClassLoader jar, String name) throws IOException {
        InputStream in = jar.getResourceAsStream(name);
        if (in == null) {
            throw new IOException(name + " is not in the model's jar");
        }
        return in;
    }

    /** A model jar's encoder behind LangChain4j's in-process model (its executor: one thread per core). */
    private static final class InProcess extends AbstractInProcessEmbeddingModel {

        private final OnnxBertBiEncoder encoder;

        InProcess(OnnxBertBiEncoder encoder) {
            super(null);
            this.encoder = encoder;
        }

        @Override
        protected OnnxBertBiEncoder model() {
            return encoder;
        }
    }

    /**
     * Every model known, the kernel's default first. Fusion weights: the best of 0.30–0.95 on each half of ArguAna's
     * queries was 0.35 / 0.50 for MiniLM and 0.85 / 0.80 for BGE (min-max normalised scores, each leg's top 100);
     * E5, whose dense leg is as strong as MiniLM's there, takes MiniLM's weight unmeasured.
     */
    public static final List<Model> ALL = List.of(
            new Model("all-minilm-l6-v2-q", ONNX + "allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel", "", "",
                    "all-MiniLM-L6-v2-quantized", 0.5, "all-minilm-l6-v2-q", PoolingMode.MEAN),
            new Model("all-minilm-l6-v2", ONNX + "allminilml6v2.AllMiniLmL6V2EmbeddingModel", "", "", "all-minilm-l6-v2",
                    0.5, "all-minilm-l6-v2", PoolingMode.MEAN),
            new Model("bge-small-en-v1.5-q", ONNX + "bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel",
                    "Represent this sentence for searching relevant passages: ", "", "bge-small-en-v1.5-q", 0.8,
                    "bge-small-en-v1.5-q", PoolingMode.CLS),
            new Model("bge-small-en-v1.5", ONNX + "bgesmallenv15.BgeSmallEnV15EmbeddingModel",
                    "Represent this sentence for searching relevant passages: ", "", "bge-small-en-v1.5", 0.8,
                    "bge-small-en-v1.5", PoolingMode.CLS),
            new Model("e5-small-v2-q", ONNX + "e5smallv2q.E5SmallV2QuantizedEmbeddingModel", "query: ", "passage: ",
                    "e5-small-v2-q", 0.5, "e5-small-v2-q", PoolingMode.MEAN));

    /** The default model. */
    public static final Model DEFAULT = ALL.getFirst();

    private EmbeddingModels() {
    }

    /** The names of the models known, for error messages. */
    public static String names() {
        return String.join(", ", ALL.stream().map(Model::name).toList());
    }

    /** The names of the models whose jars are on the class path (those a kernel can run), for error messages. */
    public static String shipped() {
        return String.join(", ", ALL.stream().filter(Model::available).map(Model::name).toList());
    }

    /** The model of that name, if known. */
    public static Optional<Model> named(String name) {
        return ALL.stream().filter(m -> m.name().equals(name)).findFirst();
    }
}
