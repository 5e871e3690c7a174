package dev.backplane.bench;

import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.catalog.ConnectorRegistry;
import dev.backplane.kernel.catalog.plugins.PluginLoading;
import dev.backplane.kernel.persistence.Jdbc;
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
    private static final List<String> QUERIES = List.of("list pods", "delete deployment", "show secret", "ingress",
            "scale statefulset", "certificate rotate", "dns zone record", "firewall rule chain", "backup snapshot",
            "token lease", "project image tag", "namespace quota limit", "events", "show one route", "gateway");

    private CatalogBench() {
    }

    public static void main(String[] args) throws Exception {
        Path work = Files.createTempDirectory("svc-bench");
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        TestPlugins.build(plugins, TestPlugins.connector("big", "1.x").operations(5000).nouns(NOUNS));
        for (int i = 0; i < 9; i++) {
            TestPlugins.build(plugins, TestPlugins.connector("small" + i, "1.x").operations(50).nouns(NOUNS));
        }
        try (TestIssuer issuer = new TestIssuer()) {
            Map<String, String> env = new HashMap<>(issuer.kernelSettings());
            env.put("SVC_PLUGIN_DIR", plugins.toString());
            Path data = work.resolve("data");

            long[] starts = new long[4];
            for (int i = 0; i < starts.length; i++) {
                long t0 = System.nanoTime();
                TestKernel k = TestKernel.start(data, env);
                starts[i] = (System.nanoTime() - t0) / 1_000_000;
                k.close();
            }
            System.out.printf("kernel start with 10 plugins (5,450 operations): first %d ms (creates the database), "
                    + "then %s ms%n", starts[0], Arrays.toString(Arrays.copyOfRange(starts, 1, starts.length)));

            try (TestKernel k = TestKernel.start(data, env)) {
                UUID tenant = UUID.randomUUID();
                String token = issuer.token("bench", tenant, "operator");
                CatalogService service = new CatalogService(new ConnectorRegistry(
                        PluginLoading.load(plugins, Duration.ofSeconds(30))), new Jdbc(k.kernel().database().dataSource()),
                        dev.backplane.kernel.persistence.ChangeFeed.disabled());
                report("operation search, service call (5,000 ops)", 3000, i ->
                        service.search(tenant, "big-1.x", QUERIES.get(i % QUERIES.size()), Optional.empty(), 10));
                report("operation search, HTTP round trip (5,000 ops)", 3000, i -> {
                    var r = k.get("/api/v1/connectors/big-1.x/operations?query="
                            + QUERIES.get(i % QUERIES.size()).replace(" ", "%20") + "&limit=10", token);
                    if (r.status() != 200) {
                        throw new IllegalStateException(r.body());
                    }
                });
            }
        }
    }

    @FunctionalInterface
    interface Call {
        void run(int i) throws Exception;
    }

    private static void report(String what, int n, Call call) throws Exception {
        for (int i = 0; i < 500; i++) {
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
