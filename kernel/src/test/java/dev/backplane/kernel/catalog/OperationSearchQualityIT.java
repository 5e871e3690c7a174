package dev.backplane.kernel.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.catalog.CatalogViews.SearchHit;
import dev.backplane.kernel.catalog.OperationSearchFixture.Query;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.retrieval.Embedder;
import dev.backplane.kernel.retrieval.RetrievalEngine.Mode;
import dev.backplane.kernel.retrieval.RetrievalEngine;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Operation search on the hybrid engine, measured: the Kubernetes v1.36 spec (read in place from
 * ../shared/specs) ingested through the kernel, then 40 hand-labelled tasks worded as an operator or
 * agent asks them ("show the logs of a container" → read_core_v1_namespaced_pod_log) searched with
 * the lexical side alone, the dense side alone and both fused. Hybrid must be at least as good as
 * either side alone on MRR and find more answers in the top 10 than lexical search alone. Also: the
 * operations' vectors are stored once in PostgreSQL and read back — not embedded again — by a second
 * engine (another replica, a restart).
 */
public class OperationSearchQualityIT {

    private static final Path SPEC = OperationSearchFixture.SPECS.resolve("kubernetes-v1.36-swagger.json");

    @Test
    void hybridOperationSearchBeatsEitherSideOnKubernetes() throws Exception {
        // CI checks out the project beside ../shared; a clone elsewhere has no spec to read
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isRegularFile(SPEC),
                "Kubernetes spec not found at " + SPEC + " (set -Dsvc.shared.dir); not evaluated");
        List<Query> queries = OperationSearchFixture.queries("/retrieval/k8s-operation-queries.tsv");
        Path work = TempDirs.create("svc-opsearch");
        UUID tenant = UUID.randomUUID();
        try (TestIssuer issuer = new TestIssuer();
             TestKernel k = TestKernel.start(work.resolve("data"), deferred(TestKernel.settings(issuer,
                     Files.createDirectories(work.resolve("plugins")))))) {
            String connector = ingest(k, issuer.platformAdminToken("admin", tenant)); // a global connector
            Jdbc jdbc = new Jdbc(k.kernel().database().dataSource());
            Map<Mode, double[]> totals = new EnumMap<>(Mode.class);
            long embedStart;
            long embedded;
            try (RetrievalEngine engine = new RetrievalEngine(jdbc, k.kernel().changeFeed(), new Embedder())) {
                CatalogService catalog = OperationSearchFixture.catalog(work, jdbc, k, engine);
                embedStart = System.nanoTime();
                OperationSearchFixture.awaitVectors(catalog, tenant, connector);
                embedded = (System.nanoTime() - embedStart) / 1_000_000;
                for (Query q : queries) {
                    for (Mode mode : Mode.values()) {
                        List<String> ranked = catalog.search(tenant, connector, q.text(), Optional.empty(), 10, mode)
                                .hits().stream().map(SearchHit::opId).map(id -> id.substring(id.lastIndexOf('.') + 1))
                                .toList();
                        int rank = 0;
                        for (int i = 0; i < ranked.size() && rank == 0; i++) {
                            rank = q.relevant().contains(ranked.get(i)) ? i + 1 : 0;
                        }
                        double[] t = totals.computeIfAbsent(mode, m -> new double[2]);
                        t[0] += rank > 0 ? 1 : 0;
                        t[1] += rank > 0 ? 1.0 / rank : 0;
                        if (mode == Mode.HYBRID && rank == 0) {
                            System.out.println("operation search: no answer in the top 10 for '" + q.text() + "': "
                                    + ranked.subList(0, Math.min(3, ranked.size())));
                        }
                    }
                }
            }
            int n = queries.size();
            System.out.printf(Locale.ROOT, "operation search over %d Kubernetes tasks (vectors of 1,123 operations "
                    + "ready in %d ms): recall@10 / MRR — lexical %.3f / %.3f, dense %.3f / %.3f, hybrid %.3f / %.3f%n",
                    n, embedded, totals.get(Mode.LEXICAL)[0] / n, totals.get(Mode.LEXICAL)[1] / n,
                    totals.get(Mode.DENSE)[0] / n, totals.get(Mode.DENSE)[1] / n,
                    totals.get(Mode.HYBRID)[0] / n, totals.get(Mode.HYBRID)[1] / n);
            // docs (memory-and-kb, Retrieval): hybrid beats lexical and dense on MRR (0.574 against 0.476 and 0.463;
            // 0.493 before the lexical side knew synonyms and verbs, issue 44 I7), recall@10 0.775; a fusion that
            // silently returned one leg's ranking ties it, so the order is strict, with floors a few hundredths under
            // the measured figures (test-honesty F8)
            assertThat(totals.get(Mode.HYBRID)[1]).isGreaterThan(totals.get(Mode.LEXICAL)[1])
                    .isGreaterThan(totals.get(Mode.DENSE)[1]);
            assertThat(totals.get(Mode.HYBRID)[0]).isGreaterThan(totals.get(Mode.LEXICAL)[0]);
            assertThat(totals.get(Mode.HYBRID)[0] / n).as("hybrid recall@10").isGreaterThanOrEqualTo(0.75);
            assertThat(totals.get(Mode.HYBRID)[1] / n).as("hybrid MRR").isGreaterThanOrEqualTo(0.54);

            // a second engine (another replica, or this one after a restart) reads the vectors back
            try (RetrievalEngine engine = new RetrievalEngine(jdbc, k.kernel().changeFeed(), new Embedder())) {
                CatalogService catalog = OperationSearchFixture.catalog(work, jdbc, k, engine);
                long t0 = System.nanoTime();
                OperationSearchFixture.awaitVectors(catalog, tenant, connector);
                long reread = (System.nanoTime() - t0) / 1_000_000;
                System.out.println("operation search: vectors read back from PostgreSQL in " + reread + " ms");
                assertThat(reread).isLessThan(Math.max(2_000, embedded / 2));
            }
            assertThat(jdbc.queryOne("SELECT count(*) FROM retrieval_text_vectors", rs -> rs.getLong(1)).orElseThrow())
                    .isGreaterThanOrEqualTo(1_000);
        }
    }

    /** The kernel leaves the embeddings to the first search, so that this test's own engine measures embedding them. */
    private static Map<String, String> deferred(Map<String, String> settings) {
        settings.put("SVC_INGEST_EMBEDDINGS", "false");
        return settings;
    }

    private static String ingest(TestKernel k, String admin) throws Exception {
        OperationSearchFixture.ingest(k, admin, "k8s", "1.36", SPEC);
        return "k8s-1.36";
    }
}
