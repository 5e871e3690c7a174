package dev.backplane.kernel.topology;

import dev.backplane.bench.Smoke;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

/**
 * The topology graph at 100k nodes / 500k edges in one tenant: five bulk imports of 100k curated edges
 * over HTTP (timed), then traversals measured in process on the tenant graph exactly as the service
 * builds it ({@link TopologyStore#load}, the same walk and path code) and over HTTP. The graph is two
 * dense random meshes of 50k nodes (out-degree 5, kinds drawn from the vocabulary) with no edge between
 * them, so a path from one mesh to the other is the unreachable worst case. Lives in the topology
 * package (on the classpath beside the kernel) to reach the graph without a public door into it.
 */
public final class TopologyBench {

    private static final int NODES = Smoke.size(100_000, 5_000);
    private static final int OUT_DEGREE = 5;
    private static final int CHUNK = Smoke.size(100_000, 5_000);
    private static final int SAMPLES = Smoke.size(1000, 100);

    private TopologyBench() {
    }

    public static void main(String[] args) throws Exception {
        Path work = TempDirs.create("svc-topology-bench");
        UUID tenant = UUID.randomUUID();
        Random random = new Random(42);
        List<String> kinds = Vocabulary.EDGE_KINDS.stream().filter(k -> !k.equals("runs-on")).toList();
        try (TestIssuer issuer = new TestIssuer()) {
            Map<String, String> env = TestKernel.settings(issuer, Files.createDirectories(work.resolve("plugins")));
            try (TestKernel k = TestKernel.start(work.resolve("data"), env)) {
                String admin = issuer.token("admin", tenant, "tenant_admin");
                List<Map<String, Object>> edges = new ArrayList<>(CHUNK);
                int half = NODES / 2;
                int chunk = 0;
                for (int i = 0; i < NODES; i++) {
                    int base = i < half ? 0 : half;
                    int[] offsets = random.ints(1, half).distinct().limit(OUT_DEGREE).toArray();
                    for (int off : offsets) {
                        int j = base + ((i - base + off) % half);
                        edges.add(Map.of("from", "h" + i, "from_kind", "host", "kind", kinds.get(random.nextInt(kinds.size())),
                                "to", "h" + j, "to_kind", "host"));
                    }
                    if (edges.size() >= CHUNK) {
                        long t0 = System.nanoTime();
                        TestKernel.Response r = k.post("/api/v1/topology/edges/bulk", admin, Map.of("edges", edges));
                        if (r.status() != 200) {
                            throw new IllegalStateException(r.status() + " " + r.body());
                        }
                        System.out.printf("bulk import %d: %d edges in %.1f s (%s)%n", ++chunk, edges.size(),
                                (System.nanoTime() - t0) / 1e9, r.json().path("result"));
                        edges.clear();
                    }
                }
                Jdbc jdbc = new Jdbc(k.kernel().database().dataSource());
                long t0 = System.nanoTime();
                TenantGraph g = new TopologyStore(jdbc).load(tenant);
                System.out.printf("graph loaded from PostgreSQL: %d nodes, %d edges in %.1f s%n", g.nodeCount(),
                        g.edgeCount(), (System.nanoTime() - t0) / 1e9);
                Smoke.require(g.nodeCount() == NODES && g.edgeCount() > 0, "the graph has " + g.nodeCount() + " nodes, "
                        + g.edgeCount() + " edges");

                Map<String, Integer> index = new HashMap<>();
                for (int i = 0; i < g.nodeCount(); i++) {
                    index.put(g.ref(i).name(), i);
                }
                measure("dependencies --depth 16 (in process)", () -> {
                    int n = index.get("h" + random.nextInt(NODES));
                    return g.walk(n, true, 16, Set.of(), Optional.empty(), false, Traversals.MAX_RESULTS).reached().size();
                });
                measure("dependents --depth 16 --kind depends-on (in process)", () -> {
                    int n = index.get("h" + random.nextInt(NODES));
                    return g.walk(n, false, 16, Set.of("depends-on"), Optional.empty(), false, Traversals.MAX_RESULTS)
                            .reached().size();
                });
                measure("path --max-hops 8, both ends in one mesh (in process)", () -> {
                    int a = random.nextInt(half);
                    return g.path(index.get("h" + a), index.get("h" + random.nextInt(half)), 8).map(List::size).orElse(-1);
                });
                measure("path --max-hops 8, unreachable: the ends in two dense meshes (in process)", () -> {
                    int a = random.nextInt(half);
                    return g.path(index.get("h" + a), index.get("h" + (half + random.nextInt(half))), 8)
                            .map(List::size).orElse(-1);
                });
                measure("path --max-hops 32, unreachable: a sweep of both meshes (in process)", Smoke.size(50, 10), () -> g.path(
                        index.get("h" + random.nextInt(half)), index.get("h" + (half + random.nextInt(half))), 32)
                        .map(List::size).orElse(-1));
                k.get("/api/v1/topology/dependencies?node=h1", admin); // loads the kernel's own graph
                measureHttp(k, admin, "dependencies --depth 16 over HTTP", () -> "/api/v1/topology/dependencies?node=h"
                        + random.nextInt(NODES) + "&depth=16");
                measureHttp(k, admin, "path --max-hops 8, unreachable, over HTTP", () -> "/api/v1/topology/path?from=h"
                        + random.nextInt(half) + "&to=" + URLEncoder.encode("h" + (half + random.nextInt(half)),
                        StandardCharsets.UTF_8) + "&max_hops=8");
            }
        }
    }

    private interface Sample {
        int run();
    }

    private static void measure(String what, Sample sample) {
        measure(what, SAMPLES, sample);
    }

    private static void measure(String what, int samples, Sample sample) {
        for (int i = 0; i < samples / 5; i++) {
            sample.run(); // warm-up
        }
        long[] ms = new long[samples];
        long results = 0;
        for (int i = 0; i < samples; i++) {
            long t0 = System.nanoTime();
            results += sample.run();
            ms[i] = System.nanoTime() - t0;
        }
        report(what, ms, "mean answer size " + results / samples);
    }

    private static void measureHttp(TestKernel k, String token, String what, java.util.function.Supplier<String> path) {
        int n = Smoke.size(300, 30);
        long[] ms = new long[n];
        for (int i = 0; i < n; i++) {
            String p = path.get();
            long t0 = System.nanoTime();
            TestKernel.Response r = k.get(p, token);
            ms[i] = System.nanoTime() - t0;
            if (r.status() != 200) {
                throw new IllegalStateException(r.status() + " " + r.body());
            }
        }
        report(what, ms, n + " requests");
    }

    private static void report(String what, long[] nanos, String extra) {
        Arrays.sort(nanos);
        System.out.printf("%s: p50 %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.2f ms (%s)%n", what,
                nanos[nanos.length / 2] / 1e6, nanos[(int) (nanos.length * 0.95)] / 1e6,
                nanos[(int) (nanos.length * 0.99)] / 1e6, nanos[nanos.length - 1] / 1e6, extra);
    }
}
