package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.PeriodicJob;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * The one hybrid retrieval engine (ARCHITECTURE §8) for kb, memory and operation search: a lexical
 * ranking (BM25 over PostgreSQL's full-text lexemes, {@link LexicalIndex}; operations: the catalog's own
 * index) and a dense ranking (all-MiniLM-L6-v2 chunks: pgvector's HNSW index when the database has the
 * extension, in the JVM otherwise — an exact cosine scan of small partitions, Lucene's HNSW for large
 * ones; operations: {@link DenseSet}) fused by weighted reciprocal rank fusion — ranks, never raw scores.
 */
public final class RetrievalEngine implements AutoCloseable {

    /** How to rank. */
    public enum Mode { LEXICAL, DENSE, HYBRID }

    /** One fused hit. */
    public record Hit(UUID entryId, double score) {
    }

    /**
     * How a surface's two rankings are fused: {@code weight / (k + rank)} summed per item, over the first
     * {@code depth} of each ranking; a dense hit below {@code minCosine} is no hit (a query about nothing in
     * the corpus finds nothing, rather than its nearest strangers).
     */
    public record Fusion(double lexicalWeight, double denseWeight, int k, int depth, double minCosine) {

        /**
         * kb and memory: tuned on BEIR ArguAna (KbArguAnaIT with -Dsvc.arguana.tune=true; README: Retrieval) —
         * BM25 nearly as strong as the dense side there, and a small k letting each side's top ranks decide.
         */
        public static final Fusion DOCUMENTS = new Fusion(0.7, 1.0, 10, 100, -1);
        /**
         * Operation search: an operation's words (its id, group and description) are short and precise,
         * so the lexical ranking counts for more than on prose; tuned on 40 labelled Kubernetes tasks
         * (OperationSearchQualityIT, README: Retrieval).
         */
        public static final Fusion OPERATIONS = new Fusion(0.5, 1.0, 60, 50, 0.2);
    }

    /** A fused item and its score. */
    public record Fused<T>(T item, double score) {
    }

    private final Jdbc jdbc;
    private final ChangeFeed feed;
    private final Embedder embedder;
    private final VectorIndex vectors;
    private final LexicalIndex lexical;
    private final TextVectors texts;
    private final SearchLog searches;

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
        this.jdbc = jdbc;
        this.feed = feed;
        this.embedder = embedder;
        this.vectors = vectors;
        this.lexical = new LexicalIndex(jdbc, feed);
        this.texts = new TextVectors(jdbc, embedder);
        this.searches = new SearchLog(jdbc);
    }

    /** Search latency by surface and transport, and the held index slices (hits, misses, evictions, weight). */
    public void meterInto(io.micrometer.core.instrument.MeterRegistry registry) {
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

    /**
     * Whether dense searches of a partition's surface run at full speed now: its vectors are held and,
     * for a large partition, its HNSW graph is built (until then searches scan it exactly).
     */
    public boolean warm(UUID partition, String surface) {
        return vectors.warm(partition, surface);
    }

    /**
     * Indexes an entry's text in a partition of a surface: its lexemes for the lexical side and its
     * chunks' embeddings for the dense side, written in one transaction; every replica's cached slice of
     * that partition re-reads this entry on its next search.
     */
    /** An entry's text with its chunk embeddings computed: the slow part, done before any transaction opens. */
    public record Prepared(String text, List<float[]> chunks) {
        @Override
        public String toString() {
            return "Prepared[" + chunks.size() + " chunks]";
        }
    }

    public Prepared prepare(String text) {
        return new Prepared(text, embedder.embedChunks(text));
    }

    /**
     * Writes a prepared entry's retrieval rows inside the caller's transaction, so an entry and its index
     * commit together (a crash or a failing embedder can no longer leave a stored entry unsearchable);
     * call {@link #indexed} after the commit.
     */
    public void indexIn(java.sql.Connection c, UUID partition, String surface, UUID entryId, Prepared p)
            throws java.sql.SQLException {
        ChunkRows.replaceIn(c, partition, surface, entryId, p.text(), p.chunks());
    }

    /** Announces a committed {@link #indexIn} to every replica's caches. */
    public void indexed(UUID partition, String surface, UUID entryId) {
        feed.changed(SliceCache.TOPIC, SliceCache.entryKey(partition, surface, entryId));
    }

    /** Whether an entry has its retrieval rows (an entry stored by an older kernel may lack them). */
    public boolean isIndexed(String surface, UUID entryId) {
        return jdbc.queryOne("SELECT 1 FROM retrieval_docs WHERE surface = ? AND entry_id = ?", rs -> 1, surface,
                entryId).isPresent();
    }

    /**
     * Removes an entry's index rows on the caller's transaction, so they go exactly when the entry's own
     * change commits; call {@link #indexed} (which drops the cached slice) after the commit.
     */
    public void unindexIn(java.sql.Connection c, String surface, UUID entryId) throws java.sql.SQLException {
        ChunkRows.delete(c, surface, entryId);
    }

    public void unindex(UUID partition, String surface, UUID entryId) {
        ChunkRows.delete(jdbc, surface, entryId);
        feed.changed(SliceCache.TOPIC, SliceCache.entryKey(partition, surface, entryId));
    }

    public List<Hit> search(UUID tenant, String surface, String query, int limit, Mode mode, Candidates candidates) {
        return search(List.of(tenant), surface, query, limit, mode, candidates);
    }

    /**
     * Searches several partitions of a surface at once (memory: the tenant's entries and the caller's
     * cross-tenant user entries); dense candidates are merged by cosine, which is comparable across them.
     * Both sides return only {@code candidates}.
     */
    public List<Hit> search(List<UUID> partitions, String surface, String query, int limit, Mode mode,
                            Candidates candidates) {
        return rank(partitions, surface, query, limit, mode, candidates).hits();
    }

    /**
     * A search's hits, and whether its dense side was left out because a large partition's vectors were still
     * being read (a hybrid search then ranks lexically only, from the database, rather than wait seconds).
     */
    public record Ranking(List<Hit> hits, boolean denseWarming) {
    }

    /**
     * As {@link #search}, saying whether the dense side was left out: a hybrid search of a large partition
     * whose slices are not held yet (a fresh replica) is answered at once from PostgreSQL's full-text ranking
     * while they are read in the background; a search that asks for the dense side alone waits for it.
     */
    public Ranking rank(List<UUID> partitions, String surface, String query, int limit, Mode mode,
                        Candidates candidates) {
        Fusion fusion = Fusion.DOCUMENTS;
        // the lexical ranking (a database round trip for the query's lexemes) runs beside the embedding
        CompletableFuture<List<UUID>> lexicalRanking = mode == Mode.DENSE ? CompletableFuture.completedFuture(List.of())
                : CompletableFuture.supplyAsync(() -> lexical.ranked(partitions, surface, query, fusion.depth(),
                        candidates).stream().map(LexicalIndex.Scored::entryId).toList(),
                        task -> Thread.ofVirtual().name("retrieval-lexical").start(task));
        List<UUID> dense = List.of();
        boolean warming = false;
        if (mode != Mode.LEXICAL) {
            float[] q = queryVector(partitions.getFirst(), query);
            java.util.Optional<List<VectorIndex.Scored>> nearest = mode == Mode.DENSE
                    ? java.util.Optional.of(vectors.nearest(partitions, surface, q, fusion.depth(), candidates))
                    : vectors.nearestIfReady(partitions, surface, q, fusion.depth(), candidates);
            warming = nearest.isEmpty();
            dense = nearest.orElse(List.of()).stream().map(VectorIndex.Scored::entryId).toList();
        }
        List<Hit> hits = fuse(SliceCache.joined(lexicalRanking), dense, warming ? Mode.LEXICAL : mode, fusion, limit,
                Comparator.comparing(UUID::toString)).stream().map(f -> new Hit(f.item(), f.score())).toList();
        return new Ranking(hits, warming);
    }

    /**
     * Starts reading the slices of the large partitions (more than {@link SliceCache#WAIT_MAX_ROWS} chunks,
     * the ones a search would not wait for) in the background, largest first, one at a time and as far as
     * half of the heap share the slices may take: after a start or a deploy the first searches of a large kb
     * find it held. Searches meanwhile are answered without waiting ({@link #rank}). Small partitions are
     * read on their first search, in well under a second.
     */
    public void warmInBackground() {
        Thread.ofVirtual().name("retrieval-warm-up").start(() -> {
            try {
                long budgetRows = (long) (Runtime.getRuntime().maxMemory() * SliceCache.HEAP_SHARE / 2) / WARM_BYTES_PER_CHUNK;
                List<Object[]> large = jdbc.query("SELECT tenant_id, surface, count(*) FROM retrieval_chunks "
                        + "GROUP BY tenant_id, surface HAVING count(*) > ? ORDER BY 3 DESC",
                        rs -> new Object[] {rs.getObject(1, UUID.class), rs.getString(2), rs.getLong(3)},
                        SliceCache.WAIT_MAX_ROWS);
                long rows = 0;
                for (Object[] p : large) {
                    rows += (Long) p[2];
                    if (rows > budgetRows) {
                        break;
                    }
                    lexical.startWarming((UUID) p[0], (String) p[1]);
                    vectors.startWarming((UUID) p[0], (String) p[1]);
                }
            } catch (RuntimeException e) {
                System.getLogger(RetrievalEngine.class.getName()).log(System.Logger.Level.WARNING,
                        "retrieval: warming the large partitions failed; their first searches read them: " + e);
            }
        });
    }

    /** About the heap one chunk takes in a held vector slice (384 floats and bookkeeping). */
    private static final long WARM_BYTES_PER_CHUNK = 1_600;

    /**
     * A small corpus searched in memory (operation search: one text per operation); its vectors are read
     * from PostgreSQL or embedded in the background (see {@link DenseSet#ready()}).
     */
    public DenseSet denseSet(String name, List<String> corpus) {
        return texts.prepare(name, corpus);
    }

    /** Stops the background embedding of text vectors. */
    @Override
    public void close() {
        texts.close();
    }

    /**
     * Searches a {@link DenseSet}'s items: {@code lexical} ranks item numbers (the caller's own index),
     * the set ranks by cosine among the {@code allowed} items, and the two are fused. While the set's
     * vectors are not in, the ranking is lexical only.
     */
    public List<Fused<Integer>> search(UUID tenant, DenseSet set, String query, int limit, Mode mode, Fusion fusion,
                                       java.util.function.BiFunction<String, Integer, List<Integer>> lexical,
                                       java.util.function.IntPredicate allowed) {
        // the lexical ranking runs beside the query embedding (most of a short search)
        CompletableFuture<List<Integer>> lexicalRanking = mode == Mode.DENSE ? CompletableFuture.completedFuture(List.of())
                : CompletableFuture.supplyAsync(() -> lexical.apply(query, fusion.depth()),
                        task -> Thread.ofVirtual().name("retrieval-lexical").start(task));
        boolean ready = set.ready();
        List<Integer> dense = mode == Mode.LEXICAL || !ready ? List.of()
                : set.nearest(queryVector(tenant, query), fusion.depth(), allowed).stream()
                        .filter(h -> h.score() >= fusion.minCosine()).map(DenseSet.Scored::item).toList();
        return fuse(SliceCache.joined(lexicalRanking), dense, ready ? mode : Mode.LEXICAL, fusion, limit, Comparator.naturalOrder());
    }

    /** Weighted reciprocal rank fusion of two rankings (a lexical-only search takes its ranking at weight 1). */
    static <T> List<Fused<T>> fuse(List<T> lexical, List<T> dense, Mode mode, Fusion fusion, int limit,
                                   Comparator<T> ties) {
        Map<T, Double> fused = new HashMap<>();
        add(fused, lexical, mode == Mode.LEXICAL ? 1.0 : fusion.lexicalWeight(), fusion);
        add(fused, dense, fusion.denseWeight(), fusion);
        List<Fused<T>> hits = new ArrayList<>();
        fused.forEach((item, score) -> hits.add(new Fused<>(item, score)));
        hits.sort(Comparator.<Fused<T>>comparingDouble(Fused::score).reversed().thenComparing(Fused::item, ties));
        return hits.size() > limit ? List.copyOf(hits.subList(0, limit)) : hits;
    }

    private static <T> void add(Map<T, Double> fused, List<T> ranked, double weight, Fusion fusion) {
        for (int i = 0; i < Math.min(ranked.size(), fusion.depth()); i++) {
            fused.merge(ranked.get(i), weight / (fusion.k() + i + 1), Double::sum);
        }
    }

    /** The longest query any search takes. */
    public static final int MAX_QUERY_CHARS = 16_384;

    /**
     * A search query as every surface takes it — not blank, at most {@value #MAX_QUERY_CHARS} characters,
     * no NUL character (PostgreSQL text cannot hold one).
     *
     * @throws DomainException 422 {@code invalid_query}
     */
    public static void requireQuery(String query) {
        if (query == null || query.isBlank()) {
            throw CommonErrors.INVALID_QUERY.error("query is empty", Map.of("field", "query"));
        }
        if (query.length() > MAX_QUERY_CHARS) {
            throw CommonErrors.INVALID_QUERY.error("query is " + query.length() + " characters; at most "
                    + MAX_QUERY_CHARS, Map.of("field", "query", "max_chars", MAX_QUERY_CHARS));
        }
        if (query.indexOf('\0') >= 0) {
            throw CommonErrors.INVALID_QUERY.error("query contains a NUL character", Map.of("field", "query"));
        }
        if (query.codePoints().noneMatch(Character::isLetterOrDigit)) {
            throw CommonErrors.INVALID_QUERY.error("query has no letter or digit to search for",
                    Map.of("field", "query"));
        }
    }

    /** A query's vector; a text the model cannot embed is the caller's bad query, not a server error. */
    private float[] queryVector(UUID tenant, String query) {
        try {
            return embedder.embedQuery(tenant, query);
        } catch (IllegalArgumentException e) {
            throw CommonErrors.INVALID_QUERY.error("the query cannot be embedded: " + e.getMessage(),
                    Map.of("field", "query"));
        }
    }

    /** Deleting recorded searches older than {@link SearchLog#RETENTION_DAYS}. */
    public List<PeriodicJob> periodicJobs() {
        return List.of(new PeriodicJob("retrieval-searches-sweep", java.time.Duration.ofHours(6),
                () -> searches().sweep(SearchLog.RETENTION_DAYS)));
    }
}
