package dev.backplane.bench;

import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import java.lang.management.ManagementFactory;
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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sensors at scale on one kernel: 2,000 active sensors at a 60 s cadence (due times spread over the
 * minute, as a running system's are), each a governed read of a loopback target through the whole
 * pipeline. Measured: the scheduling lag of every run in the window (its start — evaluated_at less
 * the call's duration — minus its due_at), the process's CPU share with the sensors running and
 * without, and the latency of an ordinary API read (open loop at a fixed rate, from each request's
 * scheduled start) idle and under the sensor load. {@code -Dsvc.bench.sensors.count},
 * {@code -Dsvc.bench.sensors.seconds} change the size and the measured window.
 */
public final class SensorsBench {

    private static final int SENSORS = Integer.getInteger("svc.bench.sensors.count", 2000);
    private static final int SECONDS = Integer.getInteger("svc.bench.sensors.seconds", 180);
    private static final int PROBE_RATE = 20;
    private static final int IDLE_SECONDS = Smoke.size(30, 3);
    /** The sensors' cadence (smoke: 5 s, the shortest allowed, so a short window sees every sensor run). */
    private static final int CADENCE = Smoke.size(60, 5);

    private SensorsBench() {
    }

    public static void main(String[] args) throws Exception {
        HttpServer target = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 200);
        target.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        target.createContext("/", x -> {
            byte[] b = "fine".getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(200, b.length);
            x.getResponseBody().write(b);
            x.close();
        });
        target.start();
        Path work = TempDirs.create("svc-sensors-bench");
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        TestPlugins.build(plugins, TestPlugins.connector("bench", "1.x").product("bench").ranges("*").operations(3)
                .httpProbe(true));
        UUID tenant = UUID.randomUUID();
        try (TestIssuer issuer = new TestIssuer()) {
            Map<String, String> env = TestKernel.settings(issuer, plugins);
            env.put("SVC_DB_POOL_SIZE", "32");
            try (TestKernel k = TestKernel.start(work.resolve("data"), env)) {
                String admin = issuer.token("admin", tenant, "tenant_admin");
                check(k.post("/api/v1/targets", admin, Map.of("name", "web", "product", "bench", "host", "127.0.0.1",
                        "port", target.getAddress().getPort(), "extras", Map.of("scheme", "http"))));
                check(k.put("/api/v1/targets/web/secret", admin, Map.of("fields", Map.of("username", "u", "password",
                        "p-0123456789"))));
                check(k.post("/api/v1/connectors/bench-1.x/enable-reads", admin, null));
                check(k.post("/api/v1/connectors/bench-1.x/enable", admin, null));
                long t0 = System.nanoTime();
                create(k, admin);
                System.out.printf("created %d sensors (paused) in %.1f s%n", SENSORS, (System.nanoTime() - t0) / 1e9);
                Jdbc jdbc = new Jdbc(k.kernel().database().dataSource());
                HttpClient http = HttpClient.newBuilder().executor(Executors.newVirtualThreadPerTaskExecutor()).build();
                String probe = k.url() + "/api/v1/targets/web";

                probe(http, probe, admin, Smoke.size(5, 1)); // warm-up
                double cpuBefore = cpuSeconds();
                long wallBefore = System.nanoTime();
                List<Double> idle = probe(http, probe, admin, IDLE_SECONDS);
                double idleCpu = share(cpuBefore, wallBefore);

                // every sensor active, due times spread over the minute
                jdbc.update("UPDATE sensors SET status = 'active', next_run_at = now() + random() * interval '" + CADENCE
                        + " seconds' WHERE tenant_id = ?", tenant);
                System.out.println("warming up for one cadence (" + CADENCE + " s)");
                Thread.sleep(CADENCE * 1000L);
                String from = jdbc.queryOne("SELECT now()::text", rs -> rs.getString(1)).orElseThrow();
                cpuBefore = cpuSeconds();
                wallBefore = System.nanoTime();
                List<Double> busy = probe(http, probe, admin, SECONDS);
                double busyCpu = share(cpuBefore, wallBefore);
                String to = jdbc.queryOne("SELECT now()::text", rs -> rs.getString(1)).orElseThrow();
                jdbc.update("UPDATE sensors SET status = 'paused' WHERE tenant_id = ?", tenant);

                List<Double> lag = jdbc.query("""
                        SELECT extract(epoch FROM (evaluated_at - due_at)) * 1000 - duration_ms FROM sensor_results
                         WHERE tenant_id = ? AND due_at >= ?::timestamptz AND due_at < ?::timestamptz""",
                        rs -> rs.getDouble(1), tenant, from, to);
                long notOk = jdbc.queryOne("SELECT count(*) FROM sensor_results WHERE tenant_id = ? AND due_at >= "
                        + "?::timestamptz AND due_at < ?::timestamptz AND state <> 'ok'", rs -> rs.getLong(1), tenant, from,
                        to).orElseThrow();
                List<Double> call = jdbc.query("SELECT duration_ms::float8 FROM sensor_results WHERE tenant_id = ? AND "
                        + "due_at >= ?::timestamptz AND due_at < ?::timestamptz", rs -> rs.getDouble(1), tenant, from, to);
                int cores = Runtime.getRuntime().availableProcessors();
                System.out.printf("%d sensors at %d s over %d s: %d runs (expected about %d), %d not ok%n", SENSORS,
                        CADENCE, SECONDS, lag.size(), (long) SENSORS * SECONDS / CADENCE, notOk);
                Smoke.require(!lag.isEmpty() && notOk == 0, lag.size() + " sensor runs, " + notOk + " not ok");
                Smoke.require(!idle.isEmpty() && !busy.isEmpty(), "an API probe window had no successful read");
                System.out.printf("scheduling lag (ms): p50 %.0f, p99 %.0f, max %.0f%n", pct(lag, 50), pct(lag, 99),
                        pct(lag, 100));
                System.out.printf("sensor call through the pipeline (ms): p50 %.0f, p99 %.0f%n", pct(call, 50), pct(call, 99));
                System.out.printf("process CPU share of %d cores: idle %.1f %%, with sensors %.1f %%%n", cores,
                        idleCpu * 100, busyCpu * 100);
                System.out.printf("GET /api/v1/targets/{name} at %d req/s (ms): idle p50 %.1f p99 %.1f; with sensors "
                        + "p50 %.1f p99 %.1f%n", PROBE_RATE, pct(idle, 50), pct(idle, 99), pct(busy, 50), pct(busy, 99));
            }
        } finally {
            target.stop(0);
        }
    }

    private static void check(TestKernel.Response r) {
        if (r.status() / 100 != 2) {
            throw new IllegalStateException("setup failed: " + r.status() + " " + r.body());
        }
    }

    /** Creates the sensors paused, eight requests at a time. */
    private static void create(TestKernel k, String admin) throws InterruptedException {
        AtomicInteger failed = new AtomicInteger();
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            for (int i = 0; i < SENSORS; i++) {
                int n = i;
                pool.submit(() -> {
                    var r = k.post("/api/v1/sensors", admin, Map.of("name", "s" + n, "connector_id", "bench-1.x", "op_id",
                            "bench.item1.get", "target", "web", "params", Map.of("name", "item-" + n),
                            "interval_seconds", CADENCE, "status", "paused", "assertion", Map.of("rules", List.of(Map.of(
                                    "state", "critical", "when", Map.of("path", "/body", "eq", "down"))))));
                    if (r.status() != 201) {
                        failed.incrementAndGet();
                        System.err.println("create failed: " + r.status() + " " + r.body());
                    }
                });
            }
        }
        if (failed.get() > 0) {
            throw new IllegalStateException(failed.get() + " sensors were not created");
        }
    }

    /** Open-loop GETs at {@link #PROBE_RATE}/s for {@code seconds}; latencies in ms from each scheduled start. */
    private static List<Double> probe(HttpClient http, String url, String token, int seconds) throws InterruptedException {
        List<Double> out = Collections.synchronizedList(new ArrayList<>());
        HttpRequest req = HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(30)).build();
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
        long start = System.nanoTime();
        long period = 1_000_000_000L / PROBE_RATE;
        AtomicInteger n = new AtomicInteger();
        ticker.scheduleAtFixedRate(() -> {
            long scheduled = start + n.getAndIncrement() * period;
            Thread.ofVirtual().start(() -> {
                try {
                    HttpResponse<Void> r = http.send(req, HttpResponse.BodyHandlers.discarding());
                    if (r.statusCode() == 200) {
                        out.add((System.nanoTime() - scheduled) / 1e6);
                    }
                } catch (Exception e) {
                    System.err.println("probe failed: " + e);
                }
            });
        }, 0, period, TimeUnit.NANOSECONDS);
        Thread.sleep(seconds * 1000L);
        ticker.shutdownNow();
        Thread.sleep(500);
        return new ArrayList<>(out);
    }

    private static double cpuSeconds() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime() / 1e9;
    }

    private static double share(double cpuBefore, long wallBefore) {
        double wall = (System.nanoTime() - wallBefore) / 1e9;
        return (cpuSeconds() - cpuBefore) / (wall * Runtime.getRuntime().availableProcessors());
    }

    private static double pct(List<Double> values, int p) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int i = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
    }
}
