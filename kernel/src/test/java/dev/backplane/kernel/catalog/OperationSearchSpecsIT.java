package dev.backplane.kernel.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.catalog.CatalogViews.SearchHit;
import dev.backplane.kernel.catalog.OperationSearchFixture.Query;
import dev.backplane.kernel.retrieval.Embedder;
import dev.backplane.kernel.retrieval.RetrievalEngine;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.SafetyLevel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Operation search measured on every vendor spec in {@code ../shared/specs} (issue 44 I7): each spec ingested once
 * through the kernel's REST route (embeddings computed by the ingest job), then its labelled questions
 * ({@code retrieval/<spec>-operation-queries.tsv}, about ten per spec, written from the spec before any search was
 * run) searched hybrid, as operators and agents search. Printed per spec and overall: top-3 hit rate, MRR (first
 * answer in the top 10), and every question whose first hit is a destructive operation (safety {@code dangerous}, or
 * HTTP DELETE) that is not one of its answers when the question does not ask to destroy anything. Asserted: overall
 * top-3 at least 0.90, and no such destructive first hit.
 */
public class OperationSearchSpecsIT {

    /** A spec, the impl it is ingested as (connector {@code impl-1}), and its query set. */
    private record Spec(String file, String impl, String queries) {
    }

    private static final List<Spec> SPECS = List.of(
            new Spec("argocd-swagger.json", "argocd", "argocd"),
            new Spec("coolify-openapi-3.1.yaml", "coolify", "coolify"),
            new Spec("docker-engine-1.56-swagger.yaml", "docker", "docker"),
            new Spec("harbor-v2.0-swagger.yaml", "harbor", "harbor"),
            new Spec("keycloak-23.0.7-openapi.json", "keycloak", "keycloak"),
            new Spec("kubernetes-v1.36-swagger.json", "k8s", "kubernetes"),
            new Spec("nomad-openapi.yaml", "nomad", "nomad"),
            new Spec("powerdns-auth-openapi-3.1.yaml", "pdns", "powerdns"),
            new Spec("vault-openapi.json", "vault", "vault"));

    /**
     * A question that asks to destroy something (the test's own list, independent of the ranking's): only for these
     * may a destructive operation come first.
     */
    private static final Pattern ASKS_TO_DESTROY = Pattern.compile("\\b(delete|deletes|deleted|remove|destroy|purge|"
            + "prune|drop|erase|wipe|clean|cleanup|clear|uninstall|evict|kill|revoke|unregister|deregister|detach|"
            + "forget)\\b");

    /** Overall top-3 hit rate the sets must reach (issue 44: at least 90 %). */
    private static final double TOP3_FLOOR = 0.90;

    @Test
    void operationSearchFindsTheAnswerInTheTopThreeOnEverySharedSpec() throws Exception {
        for (Spec s : SPECS) {
            Assumptions.assumeTrue(Files.isRegularFile(OperationSearchFixture.SPECS.resolve(s.file())),
                    "no shared spec " + s.file() + " at " + OperationSearchFixture.SPECS + " (-Dsvc.shared.dir)");
        }
        Path work = TempDirs.create("svc-opsearch-specs");
        UUID tenant = UUID.randomUUID();
        try (TestIssuer issuer = new TestIssuer();
             TestKernel k = TestKernel.start(work.resolve("data"), TestKernel.settings(issuer,
                     Files.createDirectories(work.resolve("plugins"))))) {
            String admin = issuer.platformAdminToken("admin", tenant); // global connectors
            long t0 = System.nanoTime();
            for (Spec s : SPECS) {
                assertThat(OperationSearchFixture.ingest(k, admin, s.impl(), "1",
                        OperationSearchFixture.SPECS.resolve(s.file())).path("search_vectors").asText())
                        .as(s.file()).isEqualTo("ready");
            }
            long ingested = (System.nanoTime() - t0) / 1_000_000;

            List<String> report = new ArrayList<>();
            List<String> destructiveFirst = new ArrayList<>();
            int n = 0;
            int top3 = 0;
            double mrr = 0;
            long searchNanos = 0;
            try (RetrievalEngine engine = new RetrievalEngine(k.jdbc(), k.kernel().changeFeed(), new Embedder())) {
                CatalogService catalog = OperationSearchFixture.catalog(work, k.jdbc(), k, engine);
                for (Spec s : SPECS) {
                    String connector = s.impl() + "-1";
                    OperationSearchFixture.awaitVectors(catalog, tenant, connector); // read back, not embedded again
                    Map<String, OperationDescriptor> ops = new HashMap<>();
                    catalog.registry().require(tenant, connector).catalog().operations()
                            .forEach(op -> ops.put(op.opId().substring(op.opId().lastIndexOf('.') + 1), op));
                    List<Query> queries = OperationSearchFixture.queries("/retrieval/" + s.queries()
                            + "-operation-queries.tsv");
                    int specTop3 = 0;
                    double specMrr = 0;
                    for (Query q : queries) {
                        // a label naming no operation of the catalog is a broken label, not a miss
                        assertThat(ops.keySet()).as(s.queries() + ": labels of '" + q.text() + "'")
                                .containsAll(q.relevant());
                        long t = System.nanoTime();
                        List<SearchHit> hits = catalog.search(tenant, connector, q.text(), Optional.empty(), 10)
                                .hits();
                        searchNanos += System.nanoTime() - t;
                        List<String> ranked = hits.stream().map(h -> h.opId().substring(h.opId().lastIndexOf('.') + 1))
                                .toList();
                        int rank = 0;
                        for (int i = 0; i < ranked.size() && rank == 0; i++) {
                            rank = q.relevant().contains(ranked.get(i)) ? i + 1 : 0;
                        }
                        specTop3 += rank >= 1 && rank <= 3 ? 1 : 0;
                        specMrr += rank > 0 ? 1.0 / rank : 0;
                        if (rank == 0 || rank > 3) {
                            report.add(String.format(Locale.ROOT, "  %s: '%s' -> %s (answer %s)", s.queries(),
                                    q.text(), ranked.subList(0, Math.min(3, ranked.size())),
                                    rank == 0 ? "not in the top 10" : "at " + rank));
                            if (Boolean.getBoolean("svc.opsearch.sides")) { // each side's own top 5, to see why
                                for (RetrievalEngine.Mode mode : List.of(RetrievalEngine.Mode.LEXICAL,
                                        RetrievalEngine.Mode.DENSE)) {
                                    report.add("      " + mode + ": " + catalog.search(tenant, connector, q.text(),
                                            Optional.empty(), 5, mode).hits().stream().map(h -> h.opId()
                                            .substring(h.opId().lastIndexOf('.') + 1)).toList());
                                }
                            }
                        }
                        if (!ranked.isEmpty() && !q.relevant().contains(ranked.getFirst())
                                && destructive(ops.get(ranked.getFirst()))
                                && !ASKS_TO_DESTROY.matcher(q.text().toLowerCase(Locale.ROOT)).find()) {
                            destructiveFirst.add(s.queries() + ": '" + q.text() + "' -> " + ranked.getFirst());
                        }
                    }
                    System.out.printf(Locale.ROOT, "operation search %-10s %4d ops, %2d questions: top-3 %.3f, MRR %.3f%n",
                            s.queries(), ops.size(), queries.size(), (double) specTop3 / queries.size(),
                            specMrr / queries.size());
                    n += queries.size();
                    top3 += specTop3;
                    mrr += specMrr;
                }
            }
            System.out.printf(Locale.ROOT, "operation search over %d questions on %d specs (ingested in %d ms, "
                    + "%.1f ms a search): top-3 %.3f, MRR %.3f; destructive first for a non-destructive question: %d%n",
                    n, SPECS.size(), ingested, searchNanos / 1e6 / n, (double) top3 / n, mrr / n,
                    destructiveFirst.size());
            report.forEach(System.out::println);
            destructiveFirst.forEach(d -> System.out.println("  destructive first: " + d));
            assertThat(destructiveFirst).as("destructive operations ranked first for non-destructive questions")
                    .isEmpty();
            assertThat((double) top3 / n).as("overall top-3 hit rate").isGreaterThanOrEqualTo(TOP3_FLOOR);
        }
    }

    /** Safety dangerous, or an HTTP DELETE. */
    private static boolean destructive(OperationDescriptor op) {
        return op.safetyLevel() == SafetyLevel.DANGEROUS
                || op.shape() instanceof OperationShape.Http http && http.method().equals("DELETE");
    }
}
