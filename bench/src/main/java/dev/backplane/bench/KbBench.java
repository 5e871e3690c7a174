package dev.backplane.bench;

import dev.backplane.kernel.kb.KbService;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.retrieval.Embedder;
import dev.backplane.kernel.retrieval.EmbeddingModels;
import dev.backplane.kernel.retrieval.RetrievalEngine;
import dev.backplane.kernel.testing.PgliteServer;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Knowledge-base search at scale (ARCHITECTURE §14: kb/memory search p95 ≤ 25 ms at 100k entries):
 * the embedder's throughput, then 100,000 entries seeded straight into the kb tables (SQL in
 * batches; vectors composed as {@link KbCorpus} explains) and hybrid searches over HTTP — on plain
 * PostgreSQL (embedded; the JVM index: an HNSW graph built in the background after the first search,
 * measured once it is in, beside the exact scan it replaces, in process, in the same run) and, when node is installed, on PGlite with pgvector
 * (the HNSW path; PostgreSQL in WASM, one session, so read its numbers as a functional check, not as
 * what a native pgvector server does). Entry counts: -Dsvc.bench.kb.entries (default 100000) and
 * -Dsvc.bench.kb.pgvector-entries (default 10000: PGlite loads and indexes a few hundred entries a
 * second, and 100,000 take 10 minutes); 0 skips that part. The embedding model: -Dsvc.bench.kb.model (default the
 * kernel's default; the kernel runs it as {@code retrieval.model} and the seed's vectors are its).
 */
public final class KbBench {

    private static final int EMBEDDED_FOR_REAL = Smoke.size(500, 100);
    private static final int SEARCHES = Smoke.size(240, 40);
    /** Four times the sequential count: the four-client phase lasted under 2 s at 240, too short to read steadily. */
    private static final int CONCURRENT_SEARCHES = 4 * SEARCHES;

    private KbBench() {
    }

    public static void main(String[] args) throws Exception {
        int entries = Integer.getInteger("svc.bench.kb.entries", 100_000);
        int pgEntries = Integer.getInteger("svc.bench.kb.pgvector-entries", 10_000);
        // the model the kernel runs and the seed's vectors come from (retrieval.model); the default unless asked
        String modelName = System.getProperty("svc.bench.kb.model", EmbeddingModels.DEFAULT.name());
        EmbeddingModels.Model model = EmbeddingModels.named(modelName).filter(EmbeddingModels.Model::available)
                .orElseThrow(() -> new IllegalArgumentException("-Dsvc.bench.kb.model=" + modelName
                        + ": not a model on the class path (" + EmbeddingModels.shipped() + ")"));
        Embedder embedder = new Embedder(model);
        float[][] real = embedderThroughput(embedder);
        KbCorpus.Vocabulary vocabulary = KbCorpus.Vocabulary.embed(embedder);
        double fidelity = 0;
        for (int i = 0; i < real.length; i++) {
            fidelity += KbCorpus.cosine(real[i], vocabulary.vector(i));
        }
        System.out.printf(Locale.ROOT, "composed vectors: mean cosine %.3f to the real embedding of the same text "
                + "(over %d entries; those entries keep their real vectors)%n", fidelity / real.length, real.length);

        Path work = TempDirs.create("svc-kb-bench");
        try (TestIssuer issuer = new TestIssuer()) {
            Map<String, String> env = TestKernel.settings(issuer, Files.createDirectories(work.resolve("plugins")));
            env.put("SVC_RETRIEVAL_MODEL", model.name());
            if (entries > 0) {
                try (TestKernel k = TestKernel.start(work.resolve("plain"), env)) {
                    run("plain PostgreSQL, JVM index", k, issuer, entries, real, vocabulary, embedder, false);
                }
            }
            Optional<String> missing = pgEntries <= 0 ? Optional.of("-Dsvc.bench.kb.pgvector-entries=0")
                    : PgliteServer.unavailable();
            if (missing.isPresent()) {
                System.out.println("pgvector: not measured (" + missing.get() + ")");
                return;
            }
            try (PgliteServer pglite = PgliteServer.start(work)) {
                env.put("SVC_DB_URL", pglite.jdbcUrl());
                env.put("SVC_DB_USER", "postgres");
                env.put("SVC_DB_POOL_SIZE", "4");
                env.put("SVC_CREDENTIALS_FILE_SINGLE_REPLICA", "true");
                try (TestKernel k = TestKernel.start(work.resolve("pglite"), env)) {
                    run("PGlite (WASM) + pgvector HNSW", k, issuer, pgEntries, real, vocabulary, embedder, true);
                }
            }
        }
    }

    /** Chunks per second through {@link Embedder#embedChunks}, one thread and all cores; returns the vectors. */
    private static float[][] embedderThroughput(Embedder embedder) throws Exception {
        embedder.embed("warm up the model");
        float[][] vectors = new float[EMBEDDED_FOR_REAL][];
        long t0 = System.nanoTime();
        for (int i = 0; i < EMBEDDED_FOR_REAL / 2; i++) {
            vectors[i] = embedder.embedChunks(KbCorpus.slug(i).replace('-', ' ') + "\n" + KbCorpus.body(i)).getFirst();
        }
        double one = EMBEDDED_FOR_REAL / 2 / ((System.nanoTime() - t0) / 1e9);
        int threads = Runtime.getRuntime().availableProcessors();
        t0 = System.nanoTime();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> done = new ArrayList<>();
            for (int i = EMBEDDED_FOR_REAL / 2; i < EMBEDDED_FOR_REAL; i++) {
                int n = i;
                done.add(pool.submit(() -> vectors[n] = embedder.embedChunks(KbCorpus.slug(n).replace('-', ' ') + "\n"
                        + KbCorpus.body(n)).getFirst()));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
        double all = (EMBEDDED_FOR_REAL - EMBEDDED_FOR_REAL / 2) / ((System.nanoTime() - t0) / 1e9);
        long[] query = new long[200];
        for (int i = 0; i < query.length; i++) {
            long t = System.nanoTime();
            embedder.embed(KbCorpus.query(i) + " " + i);
            query[i] = System.nanoTime() - t;
        }
        Arrays.sort(query);
        System.out.printf(Locale.ROOT, "embedder (%s, ~50-word entries, one chunk each): %.0f chunks/s on one thread, "
                + "%.0f chunks/s on %d threads; a query embeds in p50 %.1f ms, p95 %.1f ms%n", embedder.model().name(), one,
                all, threads, pct(query, 50), pct(query, 95));
        return vectors;
    }

    private static void run(String label, TestKernel k, TestIssuer issuer, int entries, float[][] real,
                            KbCorpus.Vocabulary vocabulary, Embedder embedder, boolean pgvector) throws Exception {
        UUID tenant = UUID.randomUUID();
        Jdbc jdbc = new Jdbc(k.kernel().database().dataSource());
        var info = k.get("/api/v1/info", null).json();
        String index = info.path("vector_index").asText();
        String model = info.path("embedding_model").asText();
        System.out.printf(Locale.ROOT, "%n== %s (vector_index %s, embedding_model %s), %,d entries%n", label, index,
                model, entries);
        if (!model.equals(embedder.model().name())) { // its searches would find none of the seeded vectors
            throw new IllegalStateException("the kernel runs " + model + "; the seed's vectors are "
                    + embedder.model().name() + "'s");
        }
        if (pgvector) {
            jdbc.update("DROP INDEX retrieval_chunks_hnsw"); // bulk load first, build once: the usual way to fill HNSW
        }
        long t0 = System.nanoTime();
        KbSeed.seed(jdbc, tenant, embedder.model().name(), entries, i -> i < real.length ? real[i] : vocabulary.vector(i), pgvector ? 250 : 2_000);
        jdbc.update("ANALYZE kb_entries");
        jdbc.update("ANALYZE retrieval_chunks");
        System.out.printf(Locale.ROOT, "seeded %,d entries (kb_entries + retrieval_chunks, SQL batches) in %.1f s%n",
                entries, (System.nanoTime() - t0) / 1e9);
        if (pgvector) {
            t0 = System.nanoTime();
            jdbc.update("CREATE INDEX retrieval_chunks_hnsw ON retrieval_chunks USING hnsw (embedding_v vector_cosine_ops)");
            System.out.printf(Locale.ROOT, "built the HNSW index in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        }
        String token = issuer.token(c -> c.subject("bench-" + tenant).claim("tenant_id", tenant.toString())
                .claim("tenant_role", "operator").expirationTime(java.util.Date.from(java.time.Instant.now().plusSeconds(7200))));
        t0 = System.nanoTime();
        boolean warming = search(k, token, KbCorpus.QUERIES.getFirst());
        System.out.printf(Locale.ROOT, "first search on this replica: %.0f ms (%s)%n", (System.nanoTime() - t0) / 1e6,
                warming ? "dense_warming: ranked by PostgreSQL's full text while the vectors are read in the background"
                        : "hybrid");
        if (!pgvector) {
            long held = System.nanoTime();
            while (search(k, token, KbCorpus.QUERIES.getFirst())) {
                Thread.sleep(100);
            }
            System.out.printf(Locale.ROOT, "kb: vectors held %.1f s after the first search%n", (System.nanoTime() - held) / 1e9);
            awaitGraphs(k, "kb");
        }
        for (int i = 0; i < 40; i++) {
            search(k, token, KbCorpus.query(i));
        }
        long[] sequential = new long[SEARCHES];
        for (int i = 0; i < SEARCHES; i++) {
            long t = System.nanoTime();
            search(k, token, KbCorpus.query(i));
            sequential[i] = System.nanoTime() - t;
        }
        report("kb search over HTTP, hybrid, limit 10, one client", sequential);
        concurrent(k, token, 4);

        RetrievalEngine engine = new RetrievalEngine(jdbc, k.kernel().changeFeed(), embedder);
        KbService kb = new KbService(jdbc, engine);
        kb.search(tenant, "warm up", 10, Map.of()); // loads this engine's own copy where the JVM holds vectors
        long deadline = System.nanoTime() + 900_000_000_000L;
        while (!engine.warm(tenant, "kb") && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        if (!pgvector) {
            // this engine builds its own graph in the background: measured before it is in, "jvm-hnsw" read as an
            // exact scan beside a graph build (the gauge counts every engine of the JVM)
            awaitGraphs(k, "kb, the bench's own engine");
        }
        KbService exact = null;
        if (!pgvector) {
            // the side-by-side baseline: the same JVM index without graphs, as every slice was searched before
            exact = new KbService(jdbc, RetrievalEngine.inJvm(jdbc, k.kernel().changeFeed(), embedder, Integer.MAX_VALUE));
            exact.search(tenant, "warm up", 10, Map.of());
        }
        for (RetrievalEngine.Mode mode : RetrievalEngine.Mode.values()) {
            report("  in process, " + mode.name().toLowerCase(Locale.ROOT) + " (" + engine.vectorIndex() + ")",
                    timed(SEARCHES / 2, i -> kb.search(tenant, KbCorpus.query(i), 10, Map.of(), mode)));
            if (exact != null && mode != RetrievalEngine.Mode.LEXICAL) {
                KbService baseline = exact;
                report("  in process, " + mode.name().toLowerCase(Locale.ROOT) + " (jvm-exact, the previous path)",
                        timed(SEARCHES / 2, i -> baseline.search(tenant, KbCorpus.query(i), 10, Map.of(), mode)));
            }
        }
        if (exact != null) {
            // the index alone: queries embedded once (the per-tenant query-vector cache), then searched again
            List<String> asked = java.util.stream.IntStream.range(0, SEARCHES / 2).mapToObj(KbCorpus::query).toList();
            asked.forEach(q -> kb.search(tenant, q, 10, Map.of(), RetrievalEngine.Mode.DENSE));
            KbService baseline = exact;
            report("  in process, dense, query vector cached: the index alone (jvm-hnsw)", timed(asked.size(), i ->
                    kb.search(tenant, asked.get(i), 10, Map.of(), RetrievalEngine.Mode.DENSE)));
            report("  in process, dense, query vector cached: the index alone (jvm-exact)", timed(asked.size(), i ->
                    baseline.search(tenant, asked.get(i), 10, Map.of(), RetrievalEngine.Mode.DENSE)));
            double recall = 0;
            double same = 0;
            for (int i = 0; i < SEARCHES / 2; i++) {
                String query = KbCorpus.query(i); // each call is the next query: ask both the same one
                List<String> viaGraph = kb.search(tenant, query, 10, Map.of(), RetrievalEngine.Mode.DENSE)
                        .stream().map(KbService.Hit::slug).toList();
                List<String> scanned = exact.search(tenant, query, 10, Map.of(), RetrievalEngine.Mode.DENSE)
                        .stream().map(KbService.Hit::slug).toList();
                recall += viaGraph.stream().filter(scanned::contains).count() / (double) Math.max(1, scanned.size());
                List<String> hybridGraph = kb.search(tenant, query, 10, Map.of()).stream()
                        .map(KbService.Hit::slug).toList();
                same += hybridGraph.equals(exact.search(tenant, query, 10, Map.of()).stream()
                        .map(KbService.Hit::slug).toList()) ? 1 : 0;
            }
            System.out.printf(Locale.ROOT, "  dense recall@10 of the graph against the exact scan: %.3f; hybrid top 10 "
                    + "identical in %.0f%% of searches%n", recall / (SEARCHES / 2), 100 * same / (SEARCHES / 2));
            Smoke.require(recall / (SEARCHES / 2) >= 0.8, "dense recall@10 " + recall / (SEARCHES / 2) + " < 0.8");
        }
        report("  in process, hybrid with a metadata filter (kind=runbook: half the entries)", timed(SEARCHES / 2, i ->
                kb.search(tenant, KbCorpus.query(i), 10, Map.of("kind", "runbook"))));

        t0 = System.nanoTime();
        KbSeed.seedMemory(jdbc, tenant, embedder.model().name(), entries, i -> i < real.length ? real[i] : vocabulary.vector(i), pgvector ? 250 : 2_000);
        jdbc.update("ANALYZE memory_entries");
        jdbc.update("ANALYZE retrieval_chunks");
        System.out.printf(Locale.ROOT, "memory: seeded %,d tenant-scope entries in %.1f s%n", entries,
                (System.nanoTime() - t0) / 1e9);
        double slices = heldVectorSlices(k);
        t0 = System.nanoTime();
        recall(k, token, KbCorpus.QUERIES.getFirst());
        System.out.printf(Locale.ROOT, "memory: first search on this replica %.0f ms%n", (System.nanoTime() - t0) / 1e6);
        if (!pgvector) {
            long held = System.nanoTime();
            while (heldVectorSlices(k) <= slices) {
                Thread.sleep(100);
            }
            System.out.printf(Locale.ROOT, "memory: vectors held %.1f s after the first search%n",
                    (System.nanoTime() - held) / 1e9);
            awaitGraphs(k, "memory");
        }
        report("memory search over HTTP (GET /api/v1/retrieve), one client", timed(SEARCHES / 2, i ->
                recall(k, token, KbCorpus.query(i))));
    }

    /**
     * Waits until the kernel has built the HNSW graphs the first search started (the gauge
     * {@code svc_retrieval_graphs_building} at /metrics back at 0) and says how long that took.
     */
    private static void awaitGraphs(TestKernel k, String what) throws InterruptedException {
        long t0 = System.nanoTime();
        long deadline = t0 + 900_000_000_000L;
        while (System.nanoTime() < deadline) {
            String building = k.get("/metrics", null).body().lines()
                    .filter(l -> l.startsWith("svc_retrieval_graphs_building")).findFirst().orElse("");
            if (building.endsWith(" 0.0") || building.endsWith(" 0")) {
                System.out.printf(Locale.ROOT, "%s: HNSW graph built %.1f s after the vectors were held (searches scanned "
                        + "exactly meanwhile)%n", what, (System.nanoTime() - t0) / 1e9);
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException(what + ": the HNSW graph was not built within 15 minutes");
    }

    private static void recall(TestKernel k, String token, String query) {
        TestKernel.Response r = k.get("/api/v1/retrieve?limit=10&query="
                + java.net.URLEncoder.encode(query, java.nio.charset.StandardCharsets.UTF_8), token);
        if (r.status() != 200 || r.json().path("hits").isEmpty()) {
            throw new IllegalStateException("memory search failed: " + r.status() + " " + r.body());
        }
    }

    /** One kb search over HTTP; whether it was ranked while the vectors were still being read. */
    private static boolean search(TestKernel k, String token, String query) {
        TestKernel.Response r = k.send("POST", "/api/v1/kb/search", token, "{\"query\": \"" + query + "\", \"limit\": 10}",
                Map.of());
        if (r.status() != 200 || r.json().path("hits").isEmpty()) {
            throw new IllegalStateException("search failed: " + r.status() + " " + r.body());
        }
        return r.json().path("dense_warming").asBoolean(false);
    }

    /** How many vector slices the kernel holds ({@code cache_size} of {@code retrieval.vector.slices} at /metrics). */
    private static double heldVectorSlices(TestKernel k) {
        return k.get("/metrics", null).body().lines().filter(l -> l.startsWith("cache_size{cache=\"retrieval.vector.slices\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    /**
     * {@code clients} closed-loop clients, {@value #CONCURRENT_SEARCHES} searches in all; latency percentiles and
     * throughput. With -Dsvc.bench.profile=FILE the phase is recorded with Java Flight Recorder (profiling settings)
     * into FILE, for {@code jfr print --events jdk.ExecutionSample FILE}.
     */
    private static void concurrent(TestKernel k, String token, int clients) throws Exception {
        long[] latencies = new long[CONCURRENT_SEARCHES];
        String jfr = System.getProperty("svc.bench.profile", "");
        jdk.jfr.Recording recording = null;
        if (!jfr.isBlank()) {
            recording = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("profile"));
            recording.setDestination(Path.of(jfr));
            recording.start();
        }
        long t0 = System.nanoTime();
        try (ExecutorService pool = Executors.newFixedThreadPool(clients)) {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int client = c;
                done.add(pool.submit(() -> {
                    for (int i = client; i < CONCURRENT_SEARCHES; i += clients) {
                        long t = System.nanoTime();
                        search(k, token, KbCorpus.query(i));
                        latencies[i] = System.nanoTime() - t;
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (recording != null) {
            recording.stop();
            recording.close();
            System.out.println("  recorded the phase with JFR into " + jfr);
        }
        report("kb search over HTTP, " + clients + " clients (" + Math.round(CONCURRENT_SEARCHES / seconds)
                + " searches/s)", latencies);
    }

    private static long[] timed(int n, java.util.function.IntConsumer work) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            long t = System.nanoTime();
            work.accept(i);
            out[i] = System.nanoTime() - t;
        }
        return out;
    }

    private static void report(String what, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        System.out.printf(Locale.ROOT, "%-75s p50 %6.1f ms  p95 %6.1f ms  p99 %6.1f ms%n", what, pct(sorted, 50),
                pct(sorted, 95), pct(sorted, 99));
    }

    private static double pct(long[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * p / 100.0) - 1)] / 1e6;
    }
}
