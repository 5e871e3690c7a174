package dev.backplane.bench;

import static dev.backplane.bench.OpenLoop.pct;

import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordingFile;

/**
 * Dispatch overhead: the same read against the same loopback target, called directly and through the
 * backplane (gate, credentials from the kv store, plugin call, audit row written before and after),
 * at fixed request rates. Latency is measured from each request's scheduled start (no coordinated
 * omission). JFR counts {@code jdk.VirtualThreadPinned} events during the runs.
 */
public final class DispatchBench {

    private static final String PASSWORD = "bench-" + UUID.randomUUID();
    private static final java.util.concurrent.atomic.AtomicInteger FAILURES = new java.util.concurrent.atomic.AtomicInteger();

    private DispatchBench() {
    }

    public static void main(String[] args) throws Exception {
        HttpServer target = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 200);
        target.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        String auth = "Basic " + Base64.getEncoder().encodeToString(("svc:" + PASSWORD).getBytes(StandardCharsets.UTF_8));
        target.createContext("/", x -> {
            byte[] b = (auth.equals(x.getRequestHeaders().getFirst("Authorization")) ? "a\nb\nc\n" : "no")
                    .getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(200, b.length);
            x.getResponseBody().write(b);
            x.close();
        });
        target.start();
        int port = target.getAddress().getPort();
        Path work = TempDirs.create("svc-dispatch-bench");
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        TestPlugins.build(plugins, TestPlugins.connector("bench", "1.x").product("bench").ranges("*").httpProbe(false));
        UUID tenant = UUID.randomUUID();
        try (TestIssuer issuer = new TestIssuer()) {
            Map<String, String> env = TestKernel.settings(issuer, plugins);
            // the deployed default: every commit flushed to disk (-Dsvc.bench.fsync=false: the test suite's setting)
            env.put("SVC_DB_EMBEDDED_FSYNC", System.getProperty("svc.bench.fsync", "true"));
            System.out.println("embedded PostgreSQL fsync: " + env.get("SVC_DB_EMBEDDED_FSYNC"));
            try (TestKernel k = TestKernel.start(work.resolve("data"), env)) {
                String admin = issuer.token("admin", tenant, "tenant_admin");
                String op = issuer.token("op", tenant, "operator");
                expect(k.send("POST", "/api/v1/targets", admin, "{\"name\": \"t\", \"product\": \"bench\", \"host\": "
                        + "\"127.0.0.1\", \"port\": " + port + ", \"extras\": {\"scheme\": \"http\"}}", Map.of()), 201);
                expect(k.send("PUT", "/api/v1/targets/t/secret", admin, "{\"fields\": {\"username\": \"svc\", "
                        + "\"password\": \"" + PASSWORD + "\"}}", Map.of()), 200);
                expect(k.send("POST", "/api/v1/connectors/bench-1.x/enable-reads", admin, null, Map.of()), 200);
                expect(k.send("POST", "/api/v1/connectors/bench-1.x/enable", admin, null, Map.of()), 200);

                HttpClient http = HttpClient.newBuilder().executor(Executors.newVirtualThreadPerTaskExecutor()).build();
                HttpRequest direct = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/items?count=3"))
                        .header("Authorization", auth).build();
                HttpRequest viaBackplane = HttpRequest.newBuilder(URI.create(k.url() + "/api/v1/operations/call"))
                        .header("Authorization", "Bearer " + op).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"connector_id\": \"bench-1.x\", \"op_id\": "
                                + "\"bench.item0.list\", \"target\": \"t\", \"params\": {\"count\": 3}}")).build();
                // the floor of any authenticated call: JWT check, routing, a small JSON answer, no dispatch
                HttpRequest floor = HttpRequest.newBuilder(URI.create(k.url() + "/api/v1/whoami"))
                        .header("Authorization", "Bearer " + op).build();
                run(http, direct, 50, 300); // warm-up
                run(http, floor, 50, 300);
                run(http, viaBackplane, 50, 500);
                try (Recording jfr = new Recording()) {
                    jfr.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
                    if (System.getProperty("svc.bench.profile") != null) {
                        // a CPU profile of the measured runs (jfr print --events jdk.ExecutionSample FILE)
                        jfr.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1));
                    }
                    jfr.start();
                    for (int rate : new int[] {50, 200}) {
                        long[] d = run(http, direct, rate, rate * 10);
                        long[] f = run(http, floor, rate, rate * 10);
                        Thread.sleep(1_100); // the floor run's statistics reach pg_stat_database first
                        Map<String, double[]> before = stages(k);
                        long commitsBefore = commits(k);
                        long[] b = run(http, viaBackplane, rate, rate * 10);
                        Map<String, double[]> after = stages(k);
                        // statistics reach pg_stat_database when a backend's transaction ends (at most a second late)
                        Thread.sleep(1_100);
                        long committed = commits(k) - commitsBefore;
                        System.out.printf("rate %d/s, %d calls each: direct p50 %.2f ms p99 %.2f ms | backplane p50 %.2f ms "
                                        + "p99 %.2f ms | overhead p50 +%.2f ms, p99 +%.2f ms%n", rate, rate * 10,
                                pct(d, 50), pct(d, 99), pct(b, 50), pct(b, 99), pct(b, 50) - pct(d, 50),
                                pct(b, 99) - pct(d, 99));
                        System.out.println("  " + breakdown(before, after, b));
                        System.out.printf("  database commits per call: %.2f (the audit intent and outcome, the activity "
                                + "feed's batches, and whatever ran in the background meanwhile)%n", committed / (double) b.length);
                        System.out.printf("  the floor of an authenticated call (GET /api/v1/whoami, no dispatch): p50 %.2f ms "
                                + "p99 %.2f ms%n", pct(f, 50), pct(f, 99));
                    }
                    jfr.stop();
                    Path file = work.resolve("bench.jfr");
                    jfr.dump(file);
                    if (System.getProperty("svc.bench.profile") != null) {
                        Files.copy(file, Path.of(System.getProperty("svc.bench.profile")),
                                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    }
                    long pinned = RecordingFile.readAllEvents(file).stream()
                            .filter(e -> e.getEventType().getName().equals("jdk.VirtualThreadPinned")).count();
                    System.out.println("jdk.VirtualThreadPinned events during the measured runs: " + pinned);
                }
                long rows = new dev.backplane.kernel.persistence.Jdbc(k.kernel().database().dataSource())
                        .queryOne("SELECT count(*) FROM audit_rows WHERE tenant_id = ? AND result_status = 'ok'",
                                rs -> rs.getLong(1), tenant).orElse(0L);
                System.out.println("audit rows written (ok): " + rows);
            }
        } finally {
            target.stop(0);
        }
    }

    /** The route whose server-side time the breakdown reads. */
    private static final String SERVED = "served";

    /**
     * The kernel's {@code svc_dispatch_stage_seconds} sums and counts by stage, and (as {@value #SERVED}) the
     * server-side time of {@code POST /api/v1/operations/call} from {@code http_server_requests_seconds}, from /metrics.
     */
    private static Map<String, double[]> stages(TestKernel k) {
        Map<String, double[]> out = new java.util.TreeMap<>();
        java.util.regex.Pattern line = java.util.regex.Pattern.compile(
                "svc_dispatch_stage_seconds_(sum|count)\\{stage=\"([a-z_]+)\"}\\s+(\\S+)");
        java.util.regex.Pattern served = java.util.regex.Pattern.compile(
                "http_server_requests_seconds_(sum|count)\\{(?=[^}]*method=\"POST\")(?=[^}]*route=\"/api/v1/operations/call\")"
                        + "[^}]*}\\s+(\\S+)");
        for (String l : k.get("/metrics", null).body().lines().toList()) {
            java.util.regex.Matcher m = line.matcher(l);
            if (m.matches()) {
                out.computeIfAbsent(m.group(2), x -> new double[2])[m.group(1).equals("sum") ? 0 : 1] =
                        Double.parseDouble(m.group(3));
            }
            java.util.regex.Matcher s = served.matcher(l);
            if (s.matches()) {
                out.computeIfAbsent(SERVED, x -> new double[2])[s.group(1).equals("sum") ? 0 : 1] +=
                        Double.parseDouble(s.group(2));
            }
        }
        return out;
    }

    /**
     * Mean time per call in each dispatch stage over one run (gate, credential, audit intent, plugin call incl. the
     * target, audit outcome), and the rest of the backplane's mean: authentication, routing, JSON and the hand-offs
     * between. A stage's time is divided by the calls served, not by how often the stage was timed, so a stage timed
     * twice in a call counts its whole time.
     */
    private static String breakdown(Map<String, double[]> before, Map<String, double[]> after, long[] latencies) {
        StringBuilder out = new StringBuilder("mean per call by stage:");
        double[] servedNow = after.getOrDefault(SERVED, new double[2]);
        double[] servedWas = before.getOrDefault(SERVED, new double[2]);
        double calls = servedNow[1] - servedWas[1];
        if (calls == 0) {
            return out.append(" no call was served").toString();
        }
        double staged = 0;
        for (String stage : new String[] {"gate", "credential", "audit_intent", "plugin_call", "audit_outcome"}) {
            double[] now = after.getOrDefault(stage, new double[2]);
            double[] was = before.getOrDefault(stage, new double[2]);
            double ms = (now[0] - was[0]) / calls * 1e3;
            staged += ms;
            out.append(String.format(" %s %.2f ms;", stage, ms));
        }
        double served = (servedNow[0] - servedWas[0]) / calls * 1e3;
        double mean = java.util.Arrays.stream(latencies).average().orElse(0) / 1e6;
        return out.append(String.format(" in the kernel outside the stages (auth, routing, JSON, validation, reduction, "
                + "hand-offs) %.2f ms; client to kernel and back (loopback, HTTP client) %.2f ms — of the %.2f ms mean",
                served - staged, mean - served, mean)).toString();
    }

    /** Transactions the kernel's database committed (all of its work, the background's included). */
    private static long commits(TestKernel k) {
        return new dev.backplane.kernel.persistence.Jdbc(k.kernel().database().dataSource()).queryOne(
                "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()",
                rs -> rs.getLong(1)).orElse(0L);
    }

    private static void expect(TestKernel.Response r, int status) {
        if (r.status() != status) {
            throw new IllegalStateException("setup failed: " + r.status() + " " + r.body());
        }
    }

    /** Open-loop ({@link OpenLoop}); the successful requests' latencies, sorted. */
    private static long[] run(HttpClient http, HttpRequest request, int rate, int n) throws InterruptedException {
        OpenLoop.Run run = OpenLoop.run(rate, n, i -> {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200 || r.body().contains("\"status\":\"error\"")) {
                throw new IllegalStateException("bad answer: " + r.body());
            }
            return true;
        }, e -> {
            if (FAILURES.getAndIncrement() < 3) {
                System.out.println("  failure: " + e.getMessage());
            }
        });
        if (run.failed() > 0) {
            System.out.println("  " + run.failed() + " request(s) failed");
        }
        return run.ok();
    }

}
