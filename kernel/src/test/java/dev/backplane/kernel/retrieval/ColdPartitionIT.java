package dev.backplane.kernel.retrieval;

import static dev.backplane.kernel.retrieval.LiveDatabase.waitFor;
import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.TempDirs;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A fresh replica does not make the first search of a large partition wait for its slices to be read:
 * a hybrid search is answered at once from PostgreSQL's full-text ranking (and says its dense side was
 * left out) while the slices are read in the background; once they are in, searches are hybrid again.
 * A small partition is read while its first search waits, as before; a dense-only search waits for its
 * vectors; {@link RetrievalEngine#warmInBackground} reads the large partitions after a start without
 * any search.
 */
class ColdPartitionIT {

    private static final String SURFACE = "it";
    /** More entries (one chunk each) than a search waits for. */
    private static final int LARGE = (int) SliceCache.WAIT_MAX_ROWS + 5_000;

    @Test
    void aLargeColdPartitionIsAnsweredAtOnceAndWarmedInTheBackground() throws Exception {
        try (LiveDatabase live = LiveDatabase.start("svc-cold")) {
            Jdbc jdbc = live.jdbc();
            ChangeFeed feed = live.feed();
            UUID large = UUID.randomUUID();
            UUID small = UUID.randomUUID();
            seed(jdbc, large, LARGE);
            seed(jdbc, small, 200);
            Embedder embedder = new Embedder();
            embedder.embedQuery(UUID.randomUUID(), "the model is loaded before the first search is timed");
            Duration took;

            try (RetrievalEngine fresh = RetrievalEngine.inJvm(jdbc, feed, embedder, Integer.MAX_VALUE)) {
                Instant asked = Instant.now();
                RetrievalEngine.Ranking first = fresh.rank(List.of(large), SURFACE, "needle", 10,
                        RetrievalEngine.Mode.HYBRID, Candidates.all());
                took = Duration.between(asked, Instant.now());
                System.out.println("first hybrid search of " + LARGE + " cold entries answered in " + took.toMillis()
                        + " ms (dense side warming: " + first.denseWarming() + ")");
                assertThat(first.denseWarming()).as("the large partition's vectors are read in the background")
                        .isTrue();
                assertThat(first.hits()).as("answered from PostgreSQL's full-text ranking").hasSize(10)
                        .allMatch(h -> isNeedle(jdbc, h.entryId()));
                waitFor(() -> fresh.warm(large, SURFACE), "the large partition's vectors are held");
                RetrievalEngine.Ranking warm = fresh.rank(List.of(large), SURFACE, "needle", 10,
                        RetrievalEngine.Mode.HYBRID, Candidates.all());
                assertThat(warm.denseWarming()).as("once held, searches are hybrid again").isFalse();
                assertThat(warm.hits()).hasSize(10);

                RetrievalEngine.Ranking ofSmall = fresh.rank(List.of(small), SURFACE, "needle", 10,
                        RetrievalEngine.Mode.HYBRID, Candidates.all());
                assertThat(ofSmall.denseWarming()).as("a small partition is read while its search waits").isFalse();
                assertThat(fresh.warm(small, SURFACE)).isTrue();
            }

            try (RetrievalEngine fresh = RetrievalEngine.inJvm(jdbc, feed, embedder, Integer.MAX_VALUE)) {
                Instant asked = Instant.now();
                RetrievalEngine.Ranking dense = fresh.rank(List.of(large), SURFACE, "needle", 10,
                        RetrievalEngine.Mode.DENSE, Candidates.all());
                Duration read = Duration.between(asked, Instant.now());
                System.out.println("first dense-only search of the same cold entries (waits for the read) answered in "
                        + read.toMillis() + " ms");
                assertThat(dense.denseWarming()).as("a dense-only search waits for the vectors").isFalse();
                assertThat(dense.hits()).hasSize(10);
                // "at once": generous bounds (here 72 ms against a 2,010 ms read), so a first hybrid search that
                // waits for the read fails
                assertThat(took).as("the first hybrid search of the cold partition").isLessThan(Duration.ofMillis(1500))
                        .isLessThan(read.dividedBy(2));
            }

            try (RetrievalEngine fresh = RetrievalEngine.inJvm(jdbc, feed, embedder, Integer.MAX_VALUE)) {
                fresh.warmInBackground();
                waitFor(() -> fresh.warm(large, SURFACE), "the large partition is read after a start, unasked");
                assertThat(fresh.warm(small, SURFACE)).as("small partitions are read on their first search").isFalse();
                assertThat(fresh.rank(List.of(large), SURFACE, "needle", 10, RetrievalEngine.Mode.HYBRID,
                        Candidates.all()).denseWarming()).isFalse();
            }
        }
    }

    @Test
    void restSaysWhenAKbSearchWasRankedWhileTheVectorsWereRead() throws Exception {
        java.nio.file.Path work = TempDirs.create("svc-cold-rest");
        UUID tenant = UUID.randomUUID();
        try (dev.backplane.kernel.testing.TestIssuer issuer = new dev.backplane.kernel.testing.TestIssuer();
             dev.backplane.kernel.testing.TestKernel k = dev.backplane.kernel.testing.TestKernel.start(work.resolve("data"),
                     dev.backplane.kernel.testing.TestKernel.settings(issuer, Files.createDirectories(work.resolve("plugins"))))) {
            Jdbc jdbc = new Jdbc(k.kernel().database().dataSource());
            jdbc.update("""
                    INSERT INTO kb_entries (id, tenant_id, slug, body, body_hash, created_by, updated_by)
                    SELECT md5(?::text || g)::uuid, ?, 'entry-' || g, 'entry number ' || g
                           || CASE WHEN g % 100 = 0 THEN ' with a needle' ELSE '' END, md5(g::text), 'it', 'it'
                      FROM generate_series(1, ?) g""", tenant, tenant, LARGE);
            seed(jdbc, tenant, LARGE, "kb");
            String token = issuer.token("reader", tenant, "read_only");
            String search = "{\"query\": \"needle\", \"limit\": 5}";
            var first = k.send("POST", "/api/v1/kb/search", token, search, Map.of());
            assertThat(first.status()).isEqualTo(200);
            assertThat(first.json().path("dense_warming").asBoolean()).as(first.body()).isTrue();
            assertThat(first.json().path("hits")).hasSize(5)
                    .allMatch(h -> h.path("snippet").asText().endsWith("with a needle"));
            waitFor(() -> !k.send("POST", "/api/v1/kb/search", token, search, Map.of()).json().has("dense_warming"),
                    "searches are hybrid once the vectors are held");
            assertThat(k.send("POST", "/api/v1/kb/search", token, search, Map.of()).json().path("hits")).hasSize(5);
        }
    }

    private static void seed(Jdbc jdbc, UUID tenant, int n) {
        seed(jdbc, tenant, n, SURFACE);
    }

    /** {@code n} entries of one random unit vector each; every 100th mentions a needle. */
    private static void seed(Jdbc jdbc, UUID tenant, int n, String surface) {
        jdbc.update("""
                INSERT INTO retrieval_docs (surface, entry_id, tenant_id, tsv)
                SELECT ?, md5(?::text || g)::uuid, ?, to_tsvector('english', 'entry number ' || g
                       || CASE WHEN g % 100 = 0 THEN ' with a needle' ELSE '' END)
                  FROM generate_series(1, ?) g""", surface, tenant, tenant, n);
        jdbc.update("""
                INSERT INTO retrieval_chunks (surface, entry_id, tenant_id, model, chunk, embedding)
                SELECT ?, md5(?::text || g)::uuid, ?, ?, 0, v.unit
                  FROM generate_series(1, ?) g,
                       LATERAL (SELECT array_agg((x / norm)::real) AS unit FROM (
                           SELECT x, sqrt(sum(x * x) OVER ()) AS norm FROM (
                               SELECT (random() - 0.5)::real AS x FROM generate_series(1, 384 + g * 0)) r) s) v""",
                surface, tenant, tenant, EmbeddingModels.DEFAULT.name(), n);
    }

    private static boolean isNeedle(Jdbc jdbc, UUID entry) {
        return jdbc.queryOne("SELECT tsv @@ to_tsquery('english', 'needle') FROM retrieval_docs WHERE entry_id = ?",
                rs -> rs.getBoolean(1), entry).orElse(false);
    }
}
