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
    /** Failed requests in the measured runs (and, in the smoke run, anywhere). */
    private static final java.util.concurrent.atomic.AtomicInteger FAILURES = new java.util.concurrent.atomic.AtomicInteger();
    /** Failures printed (the first three are). */
    private static final java.util.concurrent.atomic.AtomicInteger PRINTED = new java.util.concurrent.atomic.AtomicInteger();
    /** Dispatch stages that a measured run did not time. */
    private static final java.util.concurrent.atomic.AtomicInteger MISSING = new java.util.concurrent.atomic.AtomicInteger();

    private DispatchBench() {
    }

    public static void main(String[] args) throws Exception {
        boolean smoke = Boolean.getBoolean("svc.bench.smoke");
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
        NginxPeer nginx = null;
        try {
            nginx = NginxPeer.start(port).orElse(null);
            measure(smoke, port, auth, nginx);
        } finally {
            if (nginx != null) {
                nginx.close();
            }
            target.stop(0);
        }
        if (smoke && (FAILURES.get() > 0 || MISSING.get() > 0)) {
            System.out.println("smoke: FAILED (" + FAILURES.get() + " request(s) failed, " + MISSING.get()
                    + " stage(s) missing)");
            System.exit(1);
        }
    }

    private static void measure(boolean smoke, int port, String auth, NginxPeer nginx) throws Exception {
        // seconds per measured run at each rate; the smoke run (-Dsvc.bench.smoke=true) only checks that it all works
        int seconds = smoke ? 1 : 10;
        int warmup = smoke ? 50 : 300;
        Path work = TempDirs.create("svc-dispatch-bench");
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        TestPlugins.build(plugins, TestPlugins.connector("bench", "1.x").product("bench").ranges("*").httpProbe(false));
        UUID tenant = UUID.randomUUID();
        java.util.List<String> summary = new java.util.ArrayList<>();
        try (TestIssuer issuer = new TestIssuer()) {
            Map<String, String> env = TestKernel.settings(issuer, plugins);
            // the deployed default: every commit flushed to disk (-Dsvc.bench.fsync=false: the test suite's setting)
            env.put("SVC_DB_EMBEDDED_FSYNC", System.getProperty("svc.bench.fsync", "true"));
            System.out.println("embedded PostgreSQL fsync: " + env.get("SVC_DB_EMBEDDED_FSYNC") + (smoke ? " (smoke run)" : ""));
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
                // the same request through nginx (keep-alive to the target): the floor of one gateway hop
                HttpRequest viaNginx = nginx == null ? null : HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + nginx.port() + "/items?count=3")).header("Authorization", auth).build();
                HttpRequest viaBackplane = HttpRequest.newBuilder(URI.create(k.url() + "/api/v1/operations/call"))
                        .header("Authorization", "Bearer " + op).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"connector_id\": \"bench-1.x\", \"op_id\": "
                                + "\"bench.item0.list\", \"target\": \"t\", \"params\": {\"count\": 3}}")).build();
                // the floor of any authenticated call: JWT check, routing, a small JSON answer, no dispatch
                HttpRequest floor = HttpRequest.newBuilder(URI.create(k.url() + "/api/v1/whoami"))
                        .header("Authorization", "Bearer " + op).build();
                // the floor of the outcome write: the same unflushed commit on the same pool, on a table of its own
                dev.backplane.kernel.persistence.Jdbc db = new dev.backplane.kernel.persistence.Jdbc(
                        k.kernel().database().dataSource());
                db.update("CREATE TABLE bench_floor (id int PRIMARY KEY, n bigint NOT NULL)");
                db.update("INSERT INTO bench_floor SELECT g, 0 FROM generate_series(0, 63) g");
                updates(db, 50, warmup, false);
                run(http, direct, 50, warmup); // warm-up
                if (viaNginx != null) {
                    run(http, viaNginx, 50, warmup);
                }
                run(http, floor, 50, warmup);
                run(http, viaBackplane, 50, warmup * 5 / 3);
                try (Recording jfr = new Recording()) {
                    jfr.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
                    if (System.getProperty("svc.bench.profile") != null) {
                        // a CPU profile of the measured runs (jfr print --events jdk.ExecutionSample FILE)
                        jfr.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1));
                    }
                    jfr.start();
                    for (int rate : new int[] {50, 200}) {
                        int n = rate * seconds;
                        // interleaved, a second of each in turn: direct, nginx, the two floors, the backplane, so all of
                        // them meet the same background load (the machine's two cores are shared)
                        java.util.List<long[]> ds = new java.util.ArrayList<>();
                        java.util.List<long[]> gs = new java.util.ArrayList<>();
                        java.util.List<long[]> fs = new java.util.ArrayList<>();
                        java.util.List<long[]> us = new java.util.ArrayList<>();
                        java.util.List<long[]> ws = new java.util.ArrayList<>();
                        java.util.List<long[]> bs = new java.util.ArrayList<>();
                        Map<String, double[]> before = Map.of();
                        Map<String, double[]> after = new java.util.TreeMap<>(); // the backplane seconds' stage times
                        Thread.sleep(1_100); // the warm-up's statistics reach pg_stat_database first
                        long commitsBefore = commits(k);
                        for (int round = 0; round < seconds; round++) {
                            ds.add(run(http, direct, rate, rate));
                            if (viaNginx != null) {
                                gs.add(run(http, viaNginx, rate, rate));
                            }
                            fs.add(run(http, floor, rate, rate));
                            us.add(updates(db, rate, rate, false));
                            ws.add(updates(db, rate, rate, true));
                            Map<String, double[]> s0 = stages(k);
                            bs.add(run(http, viaBackplane, rate, rate));
                            accumulate(after, s0, stages(k));
                        }
                        // statistics reach pg_stat_database when a backend's transaction ends (at most a second late)
                        Thread.sleep(1_100);
                        long committed = commits(k) - commitsBefore;
                        long[] d = merged(ds);
                        long[] g = viaNginx == null ? null : merged(gs);
                        long[] f = merged(fs);
                        long[] u = merged(us);
                        long[] w = merged(ws);
                        long[] b = merged(bs);
                        System.out.printf("rate %d/s, %d calls each, interleaved by the second: direct p50 %.2f ms p99 %.2f ms%s | backplane p50 %.2f ms "
                                        + "p99 %.2f ms%n", rate, n, pct(d, 50), pct(d, 99),
                                g == null ? "" : String.format(" | nginx p50 %.2f ms p99 %.2f ms", pct(g, 50), pct(g, 99)),
                                pct(b, 50), pct(b, 99));
                        String overhead = overhead(d, g, b);
                        System.out.println("  " + overhead);
                        summary.add(rate + "/s: " + overhead);
                        System.out.println("  " + breakdown(before, after, b));
                        String target5 = target5(rate, d, b, before, after);
                        System.out.println("  " + target5);
                        summary.add("  " + target5);
                        System.out.printf("  database commits per call: %.2f (the audit intent and outcome, the activity "
                                + "feed's batches, and whatever else ran meanwhile: the interleaved floors (one commit per UPDATE), the background)%n", committed / (double) b.length);
                        System.out.printf("  the floor of an authenticated call (GET /api/v1/whoami, no dispatch): p50 %.2f ms "
                                + "p99 %.2f ms%n", pct(f, 50), pct(f, 99));
                        // what any gateway that records each call's intent (flushed) before it calls and its outcome
                        // before it answers must pay at least: the authenticated hop (the whoami floor over the direct
                        // call) and two database round trips, one of them flushed
                        double hop = pct(f, 50) - pct(d, 50);
                        System.out.printf("  database floors (a one-row UPDATE on the kernel's pool, nothing of ours): "
                                        + "unflushed as the outcome p50 %.2f ms p99 %.2f ms, flushed as the intent p50 %.2f ms "
                                        + "p99 %.2f ms; the authenticated hop over the direct call p50 %+.2f ms%n",
                                pct(u, 50), pct(u, 99), pct(w, 50), pct(w, 99), hop);
                        String floors = rate == 50
                                ? String.format("hop + unflushed %.2f ms at p50 (target 5 allows 1 ms for all but the intent "
                                        + "write)", hop + pct(u, 50))
                                : String.format("hop + unflushed + flushed %.2f ms at p50 (target 5 allows 1 ms in all)",
                                        hop + pct(u, 50) + pct(w, 50));
                        System.out.println("  the floor of a gateway that records intent and outcome: " + floors);
                        summary.add("  " + rate + "/s floor: " + floors);
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
                summary.add(highestRate(http, viaBackplane, smoke));
                long rows = new dev.backplane.kernel.persistence.Jdbc(k.kernel().database().dataSource())
                        .queryOne("SELECT count(*) FROM audit_rows WHERE tenant_id = ? AND result_status = 'ok'",
                                rs -> rs.getLong(1), tenant).orElse(0L);
                System.out.println("audit rows written (ok): " + rows);
            }
        } finally {
            TempDirs.delete(work);
        }
        System.out.println("summary:");
        summary.forEach(l -> System.out.println("  " + l));
    }

    /** Overhead over the direct call (p50 and p99 minus direct's), nginx's beside the backplane's and as a multiple. */
    private static String overhead(long[] d, long[] g, long[] b) {
        double b50 = pct(b, 50) - pct(d, 50);
        double b99 = pct(b, 99) - pct(d, 99);
        if (g == null) {
            return String.format("overhead over the direct call: backplane p50 %+.2f ms, p99 %+.2f ms (no nginx peer)", b50, b99);
        }
        double g50 = pct(g, 50) - pct(d, 50);
        double g99 = pct(g, 99) - pct(d, 99);
        return String.format("overhead over the direct call: nginx p50 %+.2f ms, p99 %+.2f ms | backplane p50 %+.2f ms, "
                + "p99 %+.2f ms | backplane = %s nginx's at p50, %s at p99", g50, g99, b50, b99, times(b50, g50), times(b99, g99));
    }

    /**
     * {@code a} as a multiple of {@code b}; none where b is at or below zero (nginx no slower than the direct call),
     * and a lower bound where b is below 0.05 ms (the resolution of runs on this machine).
     */
    private static String times(double a, double b) {
        if (b <= 0) {
            return String.format("n/a (nginx's %+.2f ms)", b);
        }
        return b < 0.05 ? String.format("≥ %.0f× (nginx's < 0.05 ms)", a / 0.05) : String.format("%.1f×", a / b);
    }

    /**
     * Issue 49's target 5 at this rate: at 50/s the overhead minus the durable intent write (≤ 1 ms p50, ≤ 4 ms p99),
     * at 200/s the whole overhead (≤ 1 / ≤ 5 ms). The kernel times the intent write per call but exposes it only as a
     * sum (so a mean per call) and as histogram buckets from 1 ms up; the mean is what is subtracted, from p50 and p99
     * alike, and the buckets say how far the slow writes stray from it.
     */
    private static String target5(int rate, long[] d, long[] b, Map<String, double[]> before, Map<String, double[]> after) {
        double o50 = pct(b, 50) - pct(d, 50);
        double o99 = pct(b, 99) - pct(d, 99);
        if (rate != 50) {
            return String.format("target 5 at %d/s: total overhead p50 %+.2f ms (≤ 1), p99 %+.2f ms (≤ 5): %s", rate, o50, o99,
                    o50 <= 1 && o99 <= 5 ? "met" : "not met");
        }
        double calls = delta(before, after, SERVED)[1];
        double[] intent = delta(before, after, "audit_intent");
        double mean = calls == 0 ? 0 : intent[0] / calls * 1e3;
        StringBuilder buckets = new StringBuilder();
        for (String le : new String[] {"0.001", "0.002", "0.005"}) {
            double[] in = delta(before, after, "audit_intent@" + le);
            buckets.append(String.format("%s ≤ %s ms %.1f%%", buckets.isEmpty() ? "" : ",", le.replaceFirst("0\\.00", ""),
                    intent[1] == 0 ? 0 : in[0] / intent[1] * 100));
        }
        return String.format("target 5 at 50/s: overhead minus the durable intent write p50 %+.2f ms (≤ 1), p99 %+.2f ms (≤ 4): "
                        + "%s — the intent stage's mean per call (%.2f ms) subtracted from both (the kernel exposes no per-call "
                        + "figure; of its %d intent writes%s)", o50 - mean, o99 - mean,
                o50 - mean <= 1 && o99 - mean <= 4 ? "met" : "not met", mean, (long) intent[1], buckets);
    }

    /** Adds each series' change from {@code was} to {@code now} into {@code into}. */
    private static void accumulate(Map<String, double[]> into, Map<String, double[]> was, Map<String, double[]> now) {
        now.forEach((key, v) -> {
            double[] w = was.getOrDefault(key, new double[2]);
            double[] sum = into.computeIfAbsent(key, x -> new double[2]);
            sum[0] += v[0] - w[0];
            sum[1] += v[1] - w[1];
        });
    }

    /** The runs' latencies in one sorted array. */
    private static long[] merged(java.util.List<long[]> runs) {
        return runs.stream().flatMapToLong(java.util.Arrays::stream).sorted().toArray();
    }

    private static double[] delta(Map<String, double[]> before, Map<String, double[]> after, String key) {
        double[] now = after.getOrDefault(key, new double[2]);
        double[] was = before.getOrDefault(key, new double[2]);
        return new double[] {now[0] - was[0], now[1] - was[1]};
    }

    /**
     * The highest open-loop rate one replica sustains through the backplane with p99 ≤ 50 ms and no failed call:
     * steps up (a short warm-up, then a few measured seconds at each rate) until a step misses twice in a row. Client, kernel,
     * database and target share the machine's cores, so this is a floor for one replica on a machine of its own.
     */
    private static String highestRate(HttpClient http, HttpRequest call, boolean smoke) throws InterruptedException {
        int[] steps = smoke ? new int[] {100} : new int[] {200, 300, 400, 500, 600, 800, 1000, 1200, 1500, 2000, 2500, 3000};
        int measured = smoke ? 1 : 4;
        System.out.printf("highest sustained rate through the backplane (open loop, p99 ≤ 50 ms, no failed call; %s s "
                + "warm-up and %d s measured per step):%n", smoke ? "0.5" : "1", measured);
        int held = 0;
        String heldAt = "";
        steps:
        for (int rate : steps) {
            // a missed step is tried once more before it counts: one GC pause or another process's burst on the
            // shared cores can miss a 4-second step that the rate itself does not
            for (int attempt = 1; attempt <= 2; attempt++) {
                OpenLoop.Run warm = load(http, call, rate, smoke ? rate / 2 : rate);
                OpenLoop.Run run = load(http, call, rate, rate * measured);
                long[] ok = run.ok();
                long failed = warm.failed() + run.failed();
                if (smoke) {
                    FAILURES.addAndGet((int) failed);
                }
                boolean holds = failed == 0 && pct(ok, 99) <= 50;
                System.out.printf("  %d/s%s: p50 %.2f ms p99 %.2f ms, %d failed, answered %.0f/s — %s%n", rate,
                        attempt > 1 ? " (again)" : "", pct(ok, 50), pct(ok, 99), failed, ok.length / run.elapsedSeconds(),
                        holds ? "held" : "missed");
                Thread.sleep(500);
                if (holds) {
                    held = rate;
                    heldAt = String.format(" (p50 %.2f ms, p99 %.2f ms)", pct(ok, 50), pct(ok, 99));
                    continue steps;
                }
                if (failed > 0 || smoke) {
                    break;
                }
            }
            break;
        }
        String line = held == 0 ? "highest sustained rate: none of the steps held"
                : "highest sustained rate (p99 ≤ 50 ms, no failed call): " + held + "/s" + heldAt
                        + (held == steps[steps.length - 1] ? ", the highest step tried" : "");
        System.out.println(line);
        return line;
    }

    /** The route whose server-side time the breakdown reads. */
    private static final String SERVED = "served";

    /**
     * The kernel's {@code svc_dispatch_stage_seconds} sums and counts by stage, and (as {@value #SERVED}) the
     * server-side time of {@code POST /api/v1/operations/call} from {@code http_server_requests_seconds}, from /metrics;
     * and the intent write's histogram buckets up to 5 ms as {@code audit_intent@LE} (the count in the first slot).
     */
    private static Map<String, double[]> stages(TestKernel k) {
        Map<String, double[]> out = new java.util.TreeMap<>();
        java.util.regex.Pattern line = java.util.regex.Pattern.compile(
                "svc_dispatch_stage_seconds_(sum|count)\\{stage=\"([a-z_]+)\"}\\s+(\\S+)");
        java.util.regex.Pattern served = java.util.regex.Pattern.compile(
                "http_server_requests_seconds_(sum|count)\\{(?=[^}]*method=\"POST\")(?=[^}]*route=\"/api/v1/operations/call\")"
                        + "[^}]*}\\s+(\\S+)");
        java.util.regex.Pattern bucket = java.util.regex.Pattern.compile(
                "svc_dispatch_stage_seconds_bucket\\{(?=[^}]*stage=\"audit_intent\")(?=[^}]*le=\"(0\\.00[125])\")[^}]*}\\s+(\\S+)");
        for (String l : k.get("/metrics", null).body().lines().toList()) {
            java.util.regex.Matcher h = bucket.matcher(l);
            if (h.matches()) {
                out.put("audit_intent@" + h.group(1), new double[] {Double.parseDouble(h.group(2)), 0});
            }
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
            MISSING.incrementAndGet();
            return out.append(" no call was served (MISSING: http_server_requests_seconds of the call route)").toString();
        }
        double staged = 0;
        for (String stage : new String[] {"gate", "credential", "audit_intent", "plugin_call", "audit_outcome"}) {
            double[] now = after.getOrDefault(stage, new double[2]);
            double[] was = before.getOrDefault(stage, new double[2]);
            double ms = (now[0] - was[0]) / calls * 1e3;
            staged += ms;
            out.append(String.format(" %s %.2f ms;", stage, ms));
            if (now[1] == was[1]) {
                MISSING.incrementAndGet();
                out.append(" (MISSING: not timed in this run);");
            }
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

    /** Open-loop ({@link OpenLoop}); the successful requests' latencies, sorted; failures count against the run. */
    private static long[] run(HttpClient http, HttpRequest request, int rate, int n) throws InterruptedException {
        OpenLoop.Run run = load(http, request, rate, n);
        if (run.failed() > 0) {
            FAILURES.addAndGet((int) run.failed());
            System.out.println("  " + run.failed() + " request(s) failed");
        }
        return run.ok();
    }

    /**
     * Open-loop one-row updates, each its own transaction: flushed before it returns (as the audit intent's commit)
     * or not (as the outcome's); their latencies (ns), sorted.
     */
    private static long[] updates(dev.backplane.kernel.persistence.Jdbc db, int rate, int n, boolean flushed)
            throws InterruptedException {
        String sql = "UPDATE bench_floor SET n = n + 1" + (flushed ? ""
                : " FROM " + dev.backplane.kernel.persistence.Jdbc.UNFLUSHED_COMMIT) + " WHERE id = ?";
        OpenLoop.Run run = OpenLoop.run(rate, n, i -> db.update(sql, i % 64) == 1, e -> {
            if (PRINTED.getAndIncrement() < 3) {
                System.out.println("  failure: " + e);
            }
        });
        FAILURES.addAndGet((int) run.failed());
        return run.ok();
    }

    /** Open-loop ({@link OpenLoop}); an answer other than 200 with the target's items is a failed request. */
    private static OpenLoop.Run load(HttpClient http, HttpRequest request, int rate, int n) throws InterruptedException {
        return OpenLoop.run(rate, n, i -> {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200 || r.body().contains("\"status\":\"error\"") || r.body().equals("no")) {
                throw new IllegalStateException("bad answer: " + r.statusCode() + " " + r.body());
            }
            return true;
        }, e -> {
            if (PRINTED.getAndIncrement() < 3) {
                System.out.println("  failure: " + e);
            }
        });
    }

}
