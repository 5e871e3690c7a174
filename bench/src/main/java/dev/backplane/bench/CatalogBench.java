package dev.backplane.bench;

import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.catalog.ConnectorRegistry;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.plugins.PluginLoading;
import dev.backplane.kernel.retrieval.Embedder;
import dev.backplane.kernel.retrieval.RetrievalEngine;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Catalog benchmarks: operation search latency over a 5,000-operation catalog (in the service and
 * over HTTP), and kernel start time with 10 plugins. Prints percentiles; the machine is shared, so
 * read the numbers as orders of magnitude and compare runs on one machine.
 */
public final class CatalogBench {

    private static final String[] NOUNS = {"pod", "deployment", "service", "ingress", "node", "namespace", "secret",
        "configmap", "volume", "claim", "job", "cronjob", "statefulset", "daemonset", "replicaset", "endpoint", "event",
        "role", "binding", "account", "quota", "limit", "policy", "certificate", "route", "gateway", "zone", "record",
        "rule", "chain", "table", "mount", "token", "lease", "lock", "snapshot", "backup", "image", "tag", "project"};

    private CatalogBench() {
    }

    /** The big plugin's operations (smoke: 300), and the searches measured in each report (smoke: 100). */
    private static final int BIG = Smoke.size(5000, 300);
    private static final int SEARCHES = Smoke.size(3000, 100);

    public static void main(String[] args) throws Exception {
        Path work = TempDirs.create("svc-bench");
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        TestPlugins.build(plugins, TestPlugins.connector("big", "1.x").operations(BIG).nouns(NOUNS));
        for (int i = 0; i < 9; i++) {
            TestPlugins.build(plugins, TestPlugins.connector("small" + i, "1.x").operations(50).nouns(NOUNS));
        }
        try (TestIssuer issuer = new TestIssuer()) {
            Map<String, String> env = new HashMap<>(issuer.kernelSettings());
            env.put("SVC_PLUGIN_DIR", plugins.toString());
            Path data = work.resolve("data");

            long[] starts = new long[Smoke.size(4, 2)];
            for (int i = 0; i < starts.length; i++) {
                long t0 = System.nanoTime();
                TestKernel k = TestKernel.start(data, env);
                starts[i] = (System.nanoTime() - t0) / 1_000_000;
                k.close();
            }
            System.out.printf("kernel start with 10 plugins (%,d operations): first %d ms (creates the database), "
                    + "then %s ms%n", BIG + 450, starts[0], Arrays.toString(Arrays.copyOfRange(starts, 1, starts.length)));

            try (TestKernel k = TestKernel.start(data, env)) {
                UUID tenant = UUID.randomUUID();
                String token = issuer.token("bench", tenant, "operator");
                Jdbc jdbc = new Jdbc(k.kernel().database().dataSource());
                var feed = dev.backplane.kernel.persistence.ChangeFeed.disabled();
                RetrievalEngine engine = new RetrievalEngine(jdbc, feed, new Embedder());
                CatalogService service = new CatalogService(new ConnectorRegistry(
                        PluginLoading.load(plugins, Duration.ofSeconds(30))), jdbc, feed, engine);
                long t0 = System.nanoTime();
                while (!service.searchVectorsReady(tenant, "big-1.x")) {
                    Thread.sleep(100);
                }
                System.out.printf("operation vectors of big-1.x (%,d ops) embedded and stored in %.1f s%n", BIG,
                        (System.nanoTime() - t0) / 1e9);
                report("operation search, service call (" + BIG + " ops)", SEARCHES, i -> Smoke.require(!service.search(
                        tenant, "big-1.x", query(NOUNS), Optional.empty(), 10).hits().isEmpty(), "a search found nothing"));
                ingestedCatalogs(k, issuer, tenant, engine);
                k.get("/api/v1/connectors/big-1.x/operations?query=warm", token); // the kernel reads the stored vectors
                Thread.sleep(Smoke.size(3_000, 200));
                report("operation search, HTTP round trip (" + BIG + " ops)", SEARCHES, i -> {
                    var r = k.get("/api/v1/connectors/big-1.x/operations?query="
                            + query(NOUNS).replace(" ", "%20") + "&limit=10", token);
                    if (r.status() != 200) {
                        throw new IllegalStateException(r.body());
                    }
                });
            }
        }
    }

    /** The real vendor specs of ../shared/specs ingested (global), then searched: ARCHITECTURE §14's 10 ms budget. */
    private static void ingestedCatalogs(TestKernel k, TestIssuer issuer, UUID tenant, RetrievalEngine engine)
            throws Exception {
        Path specs = Path.of(System.getProperty("svc.shared.dir", "../shared")).resolve("specs");
        if (!Files.isDirectory(specs)) {
            System.out.println("ingested catalogs: skipped (" + specs.toAbsolutePath() + " not found)");
            return;
        }
        String admin = issuer.platformAdminToken("bench-admin", tenant); // ingests global connectors
        String operator = issuer.token("bench", tenant, "operator");
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        String[][] specified = {
            {"kubernetes-v1.36-swagger.json", "k8s", "k8s-openapi", "1.36", "*"},
            {"vault-openapi.json", "vault", "vault", "1.x", ""},
            {"keycloak-23.0.7-openapi.json", "keycloak", "keycloak", "23.x", "1.x"},
            {"coolify-openapi-3.1.yaml", "coolify", "coolify", "4.x", "0.*"},
            {"harbor-v2.0-swagger.yaml", "harbor", "harbor", "2.x", ""},
            {"argocd-swagger.json", "argocd", "argocd", "3.x", "*"}};
        String[][] all = Smoke.ON ? new String[][] {specified[5]} : specified; // smoke: argocd alone
        int total = 0;
        for (String[] s : all) {
            long t0 = System.nanoTime();
            Map<String, Object> body = new HashMap<>(Map.of("product", s[1], "impl", s[2], "version", s[3],
                    "specs", List.of(Map.of("name", s[0], "content", Files.readString(specs.resolve(s[0]))))));
            if (!s[4].isEmpty()) {
                body.put("spec_info_versions_compatible", List.of(s[4]));
            }
            var r = k.send("POST", "/api/v1/connectors/ingest", admin, json.writeValueAsString(body), Map.of());
            var result = r.json();
            if (r.status() == 202) {
                String job = result.path("job_id").asText();
                do {
                    Thread.sleep(100);
                    result = k.get("/api/v1/connectors/ingest-jobs/" + job, admin).json();
                } while (!result.path("terminal").asBoolean());
                result = result.path("result");
            } else if (r.status() != 200) {
                throw new IllegalStateException(r.body());
            }
            total += result.path("operation_count").asInt();
            System.out.printf("ingest %s: %d operations, %d groups, %d ms (%s)%n", s[0],
                    result.path("operation_count").asInt(), result.path("group_count").asInt(),
                    (System.nanoTime() - t0) / 1_000_000, r.status() == 202 ? "background job" : "in the request");
        }
        Smoke.require(total > 0, "the ingested specs gave no operations");
        String[] ids = Smoke.ON ? new String[] {"argocd-3.x"}
                : new String[] {"k8s-openapi-1.36", "vault-1.x", "keycloak-23.x", "coolify-4.x", "harbor-2.x", "argocd-3.x"};
        // the operations' vectors: embedded once (here, by an engine of our own) and stored; the kernel reads them
        long t0 = System.nanoTime();
        CatalogService prepare = new CatalogService(new ConnectorRegistry(PluginLoading.load(
                TempDirs.create("svc-bench-none"), Duration.ofSeconds(30)),
                new dev.backplane.kernel.catalog.IngestStore(new Jdbc(k.kernel().database().dataSource())),
                dev.backplane.kernel.persistence.ChangeFeed.disabled(), dev.backplane.kernel.catalog.CatalogIndex.empty(),
                Duration.ofSeconds(30)), new Jdbc(k.kernel().database().dataSource()),
                dev.backplane.kernel.persistence.ChangeFeed.disabled(), engine);
        for (String id : ids) {
            while (!prepare.searchVectorsReady(tenant, id)) {
                Thread.sleep(100);
            }
        }
        System.out.printf("operation vectors of the %d ingested operations embedded and stored in %.1f s%n", total,
                (System.nanoTime() - t0) / 1e9);
        for (String id : ids) {
            k.get("/api/v1/connectors/" + id + "/operations?query=warm", operator);
        }
        Thread.sleep(Smoke.size(3_000, 200));
        String[] vendorNouns = {"pods", "deployment", "secret", "user", "realm roles", "application", "repositories",
            "token", "statefulset", "events", "server", "node", "project", "policy", "lease", "group", "client",
            "artifact", "webhook", "database", "service", "namespace", "volume", "certificate", "mount", "session"};
        report("operation search over the ingested vendor catalogs (" + total + " ops), HTTP round trip", SEARCHES, i -> {
            var r = k.get("/api/v1/connectors/" + ids[i % ids.length] + "/operations?query="
                    + java.net.URLEncoder.encode(query(vendorNouns), java.nio.charset.StandardCharsets.UTF_8)
                    + "&limit=10", operator);
            if (r.status() != 200) {
                throw new IllegalStateException(r.body());
            }
        });
    }

    private static final String[] VERBS = {"list", "delete", "show", "create", "update", "find", "get", "remove",
        "scale", "rotate", "watch", "patch"};
    private static final String[] QUALIFIERS = {"", " in a namespace", " for a project", " by name", " now",
        " for all tenants", " in prod", " quickly"};
    private static final java.util.concurrent.atomic.AtomicInteger ASKED = new java.util.concurrent.atomic.AtomicInteger();

    /** The next query: a verb, two nouns and a qualifier, every one of a run distinct (no query-vector cache hits). */
    private static String query(String[] nouns) {
        int i = ASKED.getAndIncrement();
        int n = nouns.length;
        return VERBS[i % VERBS.length] + " " + nouns[(i / VERBS.length) % n] + " "
                + nouns[(i / VERBS.length / n) % n] + QUALIFIERS[(i / VERBS.length / n / n) % QUALIFIERS.length];
    }

    @FunctionalInterface
    interface Call {
        void run(int i) throws Exception;
    }

    private static void report(String what, int n, Call call) throws Exception {
        for (int i = 0; i < Smoke.size(500, 20); i++) {
            call.run(i); // warm-up
        }
        long[] ns = new long[n];
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            call.run(i);
            ns[i] = System.nanoTime() - t0;
        }
        Arrays.sort(ns);
        System.out.printf("%s: n=%d p50 %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.2f ms%n", what, n,
                ns[n / 2] / 1e6, ns[(int) (n * 0.95)] / 1e6, ns[(int) (n * 0.99)] / 1e6, ns[n - 1] / 1e6);
    }
}
