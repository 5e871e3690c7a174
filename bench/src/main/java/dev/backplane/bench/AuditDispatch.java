package dev.backplane.bench;

import static dev.backplane.bench.OpenLoop.pct;

import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;

/**
 * The dispatch path (as {@link DispatchBench}: a read against a loopback target through gate, credentials, plugin
 * call and the audit intent and outcome rows) on the seeded database, open loop, once per kernel: run with the
 * chainer off and on alternately, the same load each time, so the chain's cost on a call shows as the difference.
 */
final class AuditDispatch implements AutoCloseable {

    private static final String PASSWORD = "bench-" + UUID.randomUUID();
    private static final int RATE = Integer.getInteger("svc.bench.audit.dispatch-rate", 100);
    private static final int CALLS = Integer.getInteger("svc.bench.audit.dispatch-calls", 3000);

    private final TestIssuer issuer;
    private final HttpServer target;
    private final String auth;
    private final Map<Boolean, List<double[]>> byMode = new java.util.TreeMap<>();

    AuditDispatch(TestIssuer issuer) throws Exception {
        this.issuer = issuer;
        target = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 200);
        target.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        auth = "Basic " + Base64.getEncoder().encodeToString(("svc:" + PASSWORD).getBytes(StandardCharsets.UTF_8));
        target.createContext("/", x -> {
            byte[] b = (auth.equals(x.getRequestHeaders().getFirst("Authorization")) ? "a\nb\nc\n" : "no")
                    .getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(200, b.length);
            x.getResponseBody().write(b);
            x.close();
        });
        target.start();
    }

    /** The dispatch tenant's target, its secret and the connector. */
    void setUp(TestKernel k) {
        UUID tenant = AuditBench.dispatchTenant();
        String admin = issuer.token("admin", tenant, "tenant_admin");
        int port = target.getAddress().getPort();
        AuditBench.expect(k.send("POST", "/api/v1/targets", admin, "{\"name\": \"t\", \"product\": \"bench\", \"host\": "
                + "\"127.0.0.1\", \"port\": " + port + ", \"extras\": {\"scheme\": \"http\"}}", Map.of()), 201);
        AuditBench.expect(k.send("PUT", "/api/v1/targets/t/secret", admin, "{\"fields\": {\"username\": \"svc\", "
                + "\"password\": \"" + PASSWORD + "\"}}", Map.of()), 200);
        AuditBench.expect(k.send("POST", "/api/v1/connectors/bench-1.x/enable-reads", admin, null, Map.of()), 200);
        AuditBench.expect(k.send("POST", "/api/v1/connectors/bench-1.x/enable", admin, null, Map.of()), 200);
    }

    /** Warm-up, then {@value #CALLS}-ish calls at the fixed rate; prints and keeps p50/p95/p99. */
    void run(TestKernel k, String label) throws Exception {
        boolean chained = label.startsWith("chaining on");
        String op = issuer.token("op", AuditBench.dispatchTenant(), "operator");
        HttpClient http = HttpClient.newBuilder().executor(Executors.newVirtualThreadPerTaskExecutor()).build();
        HttpRequest call = HttpRequest.newBuilder(URI.create(k.url() + "/api/v1/operations/call"))
                .header("Authorization", "Bearer " + op).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"connector_id\": \"bench-1.x\", \"op_id\": "
                        + "\"bench.item0.list\", \"target\": \"t\", \"params\": {\"count\": 3}}")).build();
        calls(http, call, RATE, Smoke.size(RATE * 5, RATE)); // warm-up
        Thread.sleep(Smoke.size(2_000, 200));
        long[] d = calls(http, call, RATE, CALLS);
        Smoke.require(d.length == CALLS, "dispatch, " + label + ": " + (CALLS - d.length) + " of " + CALLS + " calls failed");
        double[] p = {pct(d, 50), pct(d, 95), pct(d, 99)};
        byMode.computeIfAbsent(chained, x -> new ArrayList<>()).add(p);
        String line = String.format("dispatch, %s: %d calls at %d/s: p50 %.2f ms, p95 %.2f ms, p99 %.2f ms", label,
                d.length, RATE, p[0], p[1], p[2]);
        System.out.println(line);
    }

    /** The difference on minus off of the runs' median p50 and p95. */
    void summary() {
        List<double[]> off = byMode.getOrDefault(false, List.of());
        List<double[]> on = byMode.getOrDefault(true, List.of());
        System.out.printf("dispatch: chaining on minus off, median of the runs: p50 %.2f -> %.2f ms (%+.2f ms), "
                        + "p95 %.2f -> %.2f ms (%+.2f ms); mean of the runs: p50 %+.2f ms, p95 %+.2f ms%n",
                median(off, 0), median(on, 0), median(on, 0) - median(off, 0), median(off, 1), median(on, 1),
                median(on, 1) - median(off, 1), mean(on, 0) - mean(off, 0), mean(on, 1) - mean(off, 1));
    }

    /**
     * EXPLAIN (ANALYZE, BUFFERS) of the outcome write (AuditStore.finish) on the newest row of {@code tenant}, rolled
     * back: as it runs, with its lower bound on occurred_at, and by id alone (its fallback), which probes every
     * partition's primary key.
     */
    static void explainFinish(TestKernel k, java.util.UUID tenant) throws Exception {
        try (var c = k.kernel().database().dataSource().getConnection()) {
            c.setAutoCommit(false);
            java.util.UUID id = dev.backplane.kernel.persistence.Jdbc.query(c, "SELECT id FROM audit_rows WHERE tenant_id = ? "
                    + "ORDER BY occurred_at DESC LIMIT 1", rs -> rs.getObject(1, java.util.UUID.class), tenant).getFirst();
            String update = "EXPLAIN (ANALYZE, BUFFERS) UPDATE audit_rows SET result_status = 'ok', error_code = NULL, "
                    + "duration_ms = 1 WHERE id = ?";
            java.sql.Timestamp after = java.sql.Timestamp.from(java.time.Instant.now().minus(java.time.Duration.ofDays(1)));
            for (boolean bounded : new boolean[] {true, false}) {
                List<String> plan = bounded
                        ? dev.backplane.kernel.persistence.Jdbc.query(c, update + " AND occurred_at >= ?", rs -> rs.getString(1), id, after)
                        : dev.backplane.kernel.persistence.Jdbc.query(c, update, rs -> rs.getString(1), id);
                c.rollback();
                long scans = plan.stream().filter(l -> l.contains("Index Scan") || l.contains("Seq Scan")).count();
                System.out.println("the outcome write (UPDATE audit_rows ... WHERE id = ?" + (bounded ? " AND occurred_at >= "
                        + "now - 1 day" : ", the fallback") + "), EXPLAIN (ANALYZE, BUFFERS): " + scans + " partition scans; "
                        + plan.stream().filter(l -> l.contains("Time:") || l.trim().startsWith("Buffers")).map(String::trim).toList());
            }
        }
    }

    private static double median(List<double[]> runs, int i) {
        double[] v = runs.stream().mapToDouble(r -> r[i]).sorted().toArray();
        return v.length == 0 ? Double.NaN : v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static double mean(List<double[]> runs, int i) {
        return runs.stream().mapToDouble(r -> r[i]).average().orElse(Double.NaN);
    }

    private static long[] calls(HttpClient http, HttpRequest request, int rate, int n) throws InterruptedException {
        int[] failures = {0};
        OpenLoop.Run run = OpenLoop.run(rate, n, i -> {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200 || r.body().contains("\"status\":\"error\"")) {
                throw new IllegalStateException("bad answer: " + r.statusCode() + " " + r.body());
            }
            return true;
        }, e -> {
            synchronized (failures) {
                if (failures[0]++ < 3) {
                    System.out.println("  failure: " + e.getMessage());
                }
            }
        });
        if (run.failed() > 0) {
            System.out.println("  " + run.failed() + " call(s) failed");
        }
        return run.ok();
    }

    @Override
    public void close() {
        target.stop(0);
    }
}
