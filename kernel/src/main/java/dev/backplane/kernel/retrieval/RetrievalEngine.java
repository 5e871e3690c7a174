package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.PeriodicJob;
import dev.backplane.kernel.retrieval.Fusion.Fused;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.IntPredicate;

/**
 * The one hybrid retrieval engine (ARCHITECTURE §8) for kb, memory and operation search: a lexical ranking
 * ({@link LexicalIndex}, BM25 over PostgreSQL's full-text lexemes; operations: the catalog's own index) and a
 * dense ranking (all-MiniLM-L6-v2 chunks in a {@link VectorIndex}, pgvector's or the JVM's; operations: a
 * {@link DenseSet}) fused by {@link Fusion} — ranks, never raw scores. It writes and announces entries' rows.
 */
public final class RetrievalEngine implements AutoCloseable {

    /** How to rank. */
    public enum Mode { LEXICAL, DENSE, HYBRID }

    /** One fused hit. */
    public record Hit(UUID entryId, double score) {
    }

    private final Jdbc jdbc;
    private final ChangeFeed feed;
    private final LexicalIndex lexical;
    private final ChunkStore chunks;
    private final TextVectors texts;
    private final SearchLog searches;
    /** Every model this engine has loaded, by name (a model's ONNX file is read once). */
    private final Map<String, Embedder> embedders = new ConcurrentHashMap<>();
    /** The model searches use now, with its vector index; replaced whole when the active model changes. */
    private volatile Generation current;
    /** Where the current index's series go, once {@link #meterInto} was called; a model change moves them. */
    private volatile MeterRegistry metered;
    /** Whether the engine follows the database's model state (the kernel's) or keeps one model (tests, benches). */
    private final ModelChange change;

    /** One model's side of the engine: its embedder, the index of its vectors, the search over them. */
    private record Generation(Embedder embedder, VectorIndex vectors, HybridSearch hybrid) {
        String model() {
            return embedder.model().name();
        }
    }

    /**
     * An engine of {@code embedder}'s model alone (tests and benches: it reads and writes that model's vectors,
     * whatever the database's model state); the vector index is chosen once: pgvector when the database can serve
     * it (logged either way).
     */
    public RetrievalEngine(Jdbc jdbc, ChangeFeed feed, Embedder embedder) {
        this(jdbc, feed, embedder, VectorIndex.choose(jdbc, feed, embedder.dimension(), embedder.model().name()));
    }

    /**
     * With the JVM vector index whatever the database offers, slices of at least {@code annMinChunks}
     * chunks searched through an HNSW graph ({@link Integer#MAX_VALUE}: always the exact scan) — the
     * side-by-side baseline of the benchmarks and the quality tests of the graph.
     */
    public static RetrievalEngine inJvm(Jdbc jdbc, ChangeFeed feed, Embedder embedder, int annMinChunks) {
        return new RetrievalEngine(jdbc, feed, embedder,
                new JvmVectorIndex(jdbc, feed, embedder.model().name(), annMinChunks));
    }

    /** With a given vector index (tests of one path). */
    RetrievalEngine(Jdbc jdbc, ChangeFeed feed, Embedder embedder, VectorIndex vectors) {
        this.jdbc = jdbc;
        this.feed = feed;
        this.lexical = new LexicalIndex(jdbc, feed);
        this.chunks = new ChunkStore(jdbc);
        this.texts = new TextVectors(jdbc);
        this.searches = new SearchLog(jdbc);
        this.embedders.put(embedder.model().name(), embedder);
        this.current = new Generation(embedder, vectors, new HybridSearch(embedder, lexical, vectors));
        this.change = ModelChange.pinned(embedder.model().name());
    }

    /**
     * The kernel's engine: it serves the database's active model and moves every replica to {@code configured}'s
     * ({@code retrieval.model}) when that differs — its vectors are computed in the background beside the active
     * ones, and searches switch to it when no entry lacks them ({@link ModelChange}).
     *
     * @throws IllegalStateException when the database's active model is not on the class path
     */
    public static RetrievalEngine following(Jdbc jdbc, ChangeFeed feed, Embedder configured) {
        return following(jdbc, feed, configured, ModelChange.RETIRE_AFTER);
    }

    /** As {@link #following(Jdbc, ChangeFeed, Embedder)}, the previous model's rows dropped {@code retireAfter} after a switch. */
    static RetrievalEngine following(Jdbc jdbc, ChangeFeed feed, Embedder configured, java.time.Duration retireAfter) {
        ModelStore store = new ModelStore(jdbc);
        ModelStore.State state = store.aim(configured.model().name());
        Embedder active = state.active().equals(configured.model().name()) ? configured
                : new Embedder(EmbeddingModels.named(state.active()).orElseThrow(() -> new IllegalStateException(
                        "the stored vectors are of the embedding model " + state.active() + ", which this kernel does "
                                + "not know; set retrieval.model to one of " + EmbeddingModels.names())));
        RetrievalEngine engine = new RetrievalEngine(jdbc, feed, active,
                VectorIndex.choose(jdbc, feed, active.dimension(), state.active()));
        engine.embedders.put(configured.model().name(), configured);
        engine.change.follow(engine, store, state, retireAfter);
        return engine;
    }

    /** Search latency by surface and transport, and the held index slices (hits, misses, evictions, weight). */
    public void meterInto(MeterRegistry registry) {
        metered = registry;
        searches.meterInto(registry);
        lexical.meterInto(registry);
        current.vectors().meterInto(registry);
        io.micrometer.core.instrument.Gauge.builder("svc.retrieval.model.entries.lacking",
                        () -> change.status(current.model()).entriesLacking())
                .description("while retrieval.model changes: entries still lacking the new model's vectors (-1: not "
                        + "counted yet); 0 otherwise").register(registry);
    }

    /** Where the surfaces record the searches operators and agents make (not the eval's own). */
    public SearchLog searches() {
        return searches;
    }

    /** Which vector index serves dense search: {@code pgvector-hnsw}, {@code jvm-hnsw} or {@code jvm-exact}. */
    public String vectorIndex() {
        return current.vectors().kind();
    }

    /** The embedding model searches use now, and the one being filled in (if the model is changing). */
    public ModelStatus model() {
        return change.status(current.model());
    }

    /** What {@link #model} answers. */
    public record ModelStatus(String active, java.util.Optional<String> filling, long entriesLacking) {
    }

    /** Whether dense searches of a partition's surface run at full speed now ({@link VectorIndex#warm}). */
    public boolean warm(UUID partition, String surface) {
        return current.vectors().warm(partition, surface);
    }

    /**
     * An entry's text with its chunk embeddings computed, for each model an entry is written with now (the active
     * one, and the one filling in while the model changes): the slow part, done before any transaction opens.
     */
    public record Prepared(String text, Map<String, List<float[]>> chunks) {
        @Override
        public String toString() {
            return "Prepared[" + chunks.keySet() + "]";
        }
    }

    /** What a kb or memory entry's vectors and lexemes are computed from: its slug's words, then its body. */
    public static String entryText(String slug, String body) {
        return slug.replace('-', ' ') + "\n" + body;
    }

    /** Computes an entry's chunk embeddings (no transaction open meanwhile). */
    public Prepared prepare(String text) {
        Map<String, List<float[]>> out = new LinkedHashMap<>();
        for (String model : change.written()) {
            out.put(model, embedder(model).embedChunks(text));
        }
        return new Prepared(text, out);
    }

    /**
     * Writes a prepared entry's retrieval rows (its lexemes for the lexical side, its chunks' embeddings for the
     * dense side) inside the caller's transaction, so an entry and its index commit together (a crash or a
     * failing embedder can no longer leave a stored entry unsearchable); call {@link #indexed} after the commit.
     * The models written are those the database's model state names on this transaction (a model that began to
     * fill in since {@link #prepare} is embedded now), so no entry ever lacks the vectors of a model about to
     * become active.
     */
    public void indexIn(Connection c, UUID partition, String surface, UUID entryId, Prepared p) throws SQLException {
        Map<String, List<float[]>> byModel = new LinkedHashMap<>();
        for (String model : change.writtenIn(c)) {
            List<float[]> vectors = p.chunks().get(model);
            byModel.put(model, vectors != null ? vectors : embedder(model).embedChunks(p.text()));
        }
        ChunkStore.replaceIn(c, partition, surface, entryId, p.text(), byModel);
    }

    /**
     * Where the texts of a surface's entries are read when a new model's vectors are computed in the background
     * (each surface that indexes entries registers its own, on the caller's transaction).
     */
    @FunctionalInterface
    public interface EntryTexts {
        /** The indexed text of each of {@code ids} that still exists. */
        Map<UUID, String> texts(Connection c, List<UUID> ids) throws SQLException;
    }

    /** Registers the texts of {@code surface}'s entries ({@link EntryTexts}). */
    public void entryTexts(String surface, EntryTexts texts) {
        change.entryTexts(surface, texts);
    }

    /** Announces a committed {@link #indexIn} to every replica's caches. */
    public void indexed(UUID partition, String surface, UUID entryId) {
        feed.changed(SliceChanges.TOPIC, SliceChanges.entryKey(partition, surface, entryId));
    }

    /** Whether an entry has its retrieval rows (an entry stored by an older kernel may lack them). */
    public boolean isIndexed(String surface, UUID entryId) {
        return chunks.isIndexed(surface, entryId);
    }

    /**
     * Removes an entry's index rows on the caller's transaction, so they go exactly when the entry's own
     * change commits; call {@link #indexed} (which drops the cached slice) after the commit.
     */
    public void unindexIn(Connection c, String surface, UUID entryId) throws SQLException {
        ChunkStore.delete(c, surface, entryId);
    }

    /** Removes an entry's index rows in a transaction of their own and announces it to every replica. */
    public void unindex(UUID partition, String surface, UUID entryId) {
        chunks.delete(surface, entryId);
        feed.changed(SliceChanges.TOPIC, SliceChanges.entryKey(partition, surface, entryId));
    }

    public List<Hit> search(UUID tenant, String surface, String query, int limit, Mode mode, Candidates candidates) {
        return search(List.of(tenant), surface, query, limit, mode, candidates);
    }

    /**
     * Searches several partitions of a surface at once, as one corpus (memory: the tenant's entries and the
     * caller's cross-tenant user entries); both sides return only {@code candidates}.
     */
    public List<Hit> search(List<UUID> partitions, String surface, String query, int limit, Mode mode,
                            Candidates candidates) {
        return rank(partitions, surface, query, limit, mode, candidates).hits();
    }

    /** A search's hits, and whether its dense side was left out while a large partition's vectors were read. */
    public record Ranking(List<Hit> hits, boolean denseWarming) {
    }

    /** As {@link #search}, saying whether the dense side was left out ({@link HybridSearch#rank} says when). */
    public Ranking rank(List<UUID> partitions, String surface, String query, int limit, Mode mode,
                        Candidates candidates) {
        return current.hybrid().rank(partitions, surface, query, limit, mode, candidates);
    }

    /**
     * Starts reading the slices of the large partitions in the background ({@link WarmUp} says which); searches
     * meanwhile are answered without waiting ({@link #rank}).
     */
    public void warmInBackground() {
        Generation g = current;
        WarmUp.start(chunks, lexical, g.vectors(), g.model());
    }

    /** A small corpus searched in memory (operation search), its vectors arriving in the background. */
    public DenseSet denseSet(String name, List<String> corpus) {
        return texts.prepare(name, corpus, current.embedder());
    }

    /** Stops the background embedding of text vectors. */
    @Override
    public void close() {
        change.close();
        texts.close();
    }

    /**
     * Searches a {@link DenseSet}'s items, {@code lexical} ranking item numbers (the caller's own index) and the set
     * ranking the {@code allowed} ones by cosine ({@link HybridSearch#search}).
     */
    public List<Fused<Integer>> search(UUID tenant, DenseSet set, String query, int limit, Mode mode, Fusion fusion,
                                       BiFunction<String, Integer, List<Integer>> lexical, IntPredicate allowed) {
        return current.hybrid().search(tenant, set, query, limit, mode, fusion, lexical, allowed);
    }

    /**
     * A search query as every surface takes it ({@link SearchQuery#require} says what that is).
     *
     * @throws DomainException 422 {@code invalid_query}
     */
    public static void requireQuery(String query) {
        SearchQuery.require(query);
    }

    /** The recorded searches' sweep ({@link SearchLog#periodicJobs}). */
    public List<PeriodicJob> periodicJobs() {
        List<PeriodicJob> jobs = new java.util.ArrayList<>(searches.periodicJobs());
        jobs.addAll(change.periodicJobs());
        return jobs;
    }

    /** The embedder of a model, loaded on first use. */
    Embedder embedder(String model) {
        return embedders.computeIfAbsent(model, m -> new Embedder(EmbeddingModels.named(m).orElseThrow(
                () -> new IllegalStateException("unknown embedding model " + m))));
    }

    ChangeFeed feed() {
        return feed;
    }

    /**
     * Serves {@code model} from now on: a new index of its vectors (its large partitions read ahead), then the
     * searches that start later use it; the previous index is dropped. A search under way finishes on the one it
     * began with, so no ranking mixes two models.
     */
    synchronized void serve(String model) {
        Generation before = current;
        if (before.model().equals(model)) {
            return;
        }
        Embedder embedder = embedder(model);
        VectorIndex vectors = VectorIndex.choose(jdbc, feed, embedder.dimension(), model);
        WarmUp.start(chunks, lexical, vectors, model);
        current = new Generation(embedder, vectors, new HybridSearch(embedder, lexical, vectors));
        if (metered != null) { // the series follow the index that serves
            before.vectors().meterOutOf(metered);
            vectors.meterInto(metered);
        }
        before.vectors().close();
        System.getLogger(RetrievalEngine.class.getName()).log(System.Logger.Level.INFO,
                "retrieval: searches now use the embedding model " + model + " (before: " + before.model() + ")");
    }
}
