package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.PeriodicJob;
import dev.backplane.kernel.retrieval.Fusion.Fused;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
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

    private final ChangeFeed feed;
    private final Embedder embedder;
    private final VectorIndex vectors;
    private final LexicalIndex lexical;
    private final ChunkStore chunks;
    private final TextVectors texts;
    private final SearchLog searches;
    private final HybridSearch hybrid;

    /** Chooses the vector index once: pgvector when the database can serve it (logged either way). */
    public RetrievalEngine(Jdbc jdbc, ChangeFeed feed, Embedder embedder) {
        this(jdbc, feed, embedder, VectorIndex.choose(jdbc, feed, embedder.dimension()));
    }

    /**
     * With the JVM vector index whatever the database offers, slices of at least {@code annMinChunks}
     * chunks searched through an HNSW graph ({@link Integer#MAX_VALUE}: always the exact scan) — the
     * side-by-side baseline of the benchmarks and the quality tests of the graph.
     */
    public static RetrievalEngine inJvm(Jdbc jdbc, ChangeFeed feed, Embedder embedder, int annMinChunks) {
        return new RetrievalEngine(jdbc, feed, embedder, new JvmVectorIndex(jdbc, feed, annMinChunks));
    }

    /** With a given vector index (tests of one path). */
    RetrievalEngine(Jdbc jdbc, ChangeFeed feed, Embedder embedder, VectorIndex vectors) {
        this.feed = feed;
        this.embedder = embedder;
        this.vectors = vectors;
        this.lexical = new LexicalIndex(jdbc, feed);
        this.chunks = new ChunkStore(jdbc);
        this.texts = new TextVectors(jdbc, embedder);
        this.searches = new SearchLog(jdbc);
        this.hybrid = new HybridSearch(embedder, lexical, vectors);
    }

    /** Search latency by surface and transport, and the held index slices (hits, misses, evictions, weight). */
    public void meterInto(MeterRegistry registry) {
        searches.meterInto(registry);
        lexical.meterInto(registry);
        vectors.meterInto(registry);
    }

    /** Where the surfaces record the searches operators and agents make (not the eval's own). */
    public SearchLog searches() {
        return searches;
    }

    /** Which vector index serves dense search: {@code pgvector-hnsw}, {@code jvm-hnsw} or {@code jvm-exact}. */
    public String vectorIndex() {
        return vectors.kind();
    }

    /** Whether dense searches of a partition's surface run at full speed now ({@link VectorIndex#warm}). */
    public boolean warm(UUID partition, String surface) {
        return vectors.warm(partition, surface);
    }

    /** An entry's text with its chunk embeddings computed: the slow part, done before any transaction opens. */
    public record Prepared(String text, List<float[]> chunks) {
        @Override
        public String toString() {
            return "Prepared[" + chunks.size() + " chunks]";
        }
    }

    /** Computes an entry's chunk embeddings (no transaction open meanwhile). */
    public Prepared prepare(String text) {
        return new Prepared(text, embedder.embedChunks(text));
    }

    /**
     * Writes a prepared entry's retrieval rows (its lexemes for the lexical side, its chunks' embeddings for the
     * dense side) inside the caller's transaction, so an entry and its index commit together (a crash or a
     * failing embedder can no longer leave a stored entry unsearchable); call {@link #indexed} after the commit.
     */
    public void indexIn(Connection c, UUID partition, String surface, UUID entryId, Prepared p) throws SQLException {
        ChunkStore.replaceIn(c, partition, surface, entryId, p.text(), p.chunks());
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
        return hybrid.rank(partitions, surface, query, limit, mode, candidates);
    }

    /**
     * Starts reading the slices of the large partitions in the background ({@link WarmUp} says which); searches
     * meanwhile are answered without waiting ({@link #rank}).
     */
    public void warmInBackground() {
        WarmUp.start(chunks, lexical, vectors);
    }

    /** A small corpus searched in memory (operation search), its vectors arriving in the background. */
    public DenseSet denseSet(String name, List<String> corpus) {
        return texts.prepare(name, corpus);
    }

    /** Stops the background embedding of text vectors. */
    @Override
    public void close() {
        texts.close();
    }

    /**
     * Searches a {@link DenseSet}'s items, {@code lexical} ranking item numbers (the caller's own index) and the set
     * ranking the {@code allowed} ones by cosine ({@link HybridSearch#search}).
     */
    public List<Fused<Integer>> search(UUID tenant, DenseSet set, String query, int limit, Mode mode, Fusion fusion,
                                       BiFunction<String, Integer, List<Integer>> lexical, IntPredicate allowed) {
        return hybrid.search(tenant, set, query, limit, mode, fusion, lexical, allowed);
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
        return searches.periodicJobs();
    }
}
