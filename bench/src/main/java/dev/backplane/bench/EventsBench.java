package dev.backplane.bench;

import static dev.backplane.bench.OpenLoop.pct;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.sql.DataSource;

/**
 * Durable webhook ingest: Standard Webhooks HMAC verification, normalisation, the event row and its
 * audit row committed in one transaction, open loop at fixed rates on loopback (latency from each
 * request's scheduled start). Beside it, the floor on the same machine: a bare loopback HTTP server
 * that inserts each body into PostgreSQL (one auto-committed INSERT), and the rejected-request path
 * (bad signature).
 */
public final class EventsBench {

    private static final String SECRET = "bench-secret-" + UUID.randomUUID();
    private static final int SECONDS = Smoke.size(5, 1);

    private EventsBench() {
    }

    public static void main(String[] args) throws Exception {
        Path work = TempDirs.create("svc-events-bench");
        UUID tenant = UUID.randomUUID();
        try (TestIssuer issuer = new TestIssuer()) {
            Map<String, String> env = TestKernel.settings(issuer, Files.createDirectories(work.resolve("plugins")));
            env.put("SVC_EVENTS_RATE_PER_SECOND", "100000");
            env.put("SVC_DB_POOL_SIZE", "32");
            // the deployed default: every commit flushed to disk (-Dsvc.bench.fsync=false: the test suite's setting)
            env.put("SVC_DB_EMBEDDED_FSYNC", System.getProperty("svc.bench.fsync", "true"));
            // -Dsvc.bench.audit-chain=false: the audit chainer off, to measure what linking the ingest's rows costs
            env.put("SVC_AUDIT_CHAIN_ENABLED", System.getProperty("svc.bench.audit-chain", "true"));
            System.out.println("embedded PostgreSQL fsync: " + env.get("SVC_DB_EMBEDDED_FSYNC") + "; audit chain: "
                    + env.get("SVC_AUDIT_CHAIN_ENABLED"));
            try (TestKernel k = TestKernel.start(work.resolve("data"), env)) {
                String admin = issuer.token("admin", tenant, "tenant_admin");
                var r = k.send("POST", "/api/v1/event-sources", admin, new ObjectMapper().writeValueAsString(Map.of(
                        "name", "bench", "kind", "alertrouter", "auth_strategy", "hmac-sha256", "secret", SECRET,
                        "extras", Map.of("rate_per_second", 100000, "burst", 100000))), Map.of());
                if (r.status() != 201) {
                    throw new IllegalStateException(r.body());
                }
                String url = k.url() + "/api/v1/events/ingest/" + r.json().path("slug").asText();
                DataSource ds = k.kernel().database().dataSource();
                new Jdbc(ds).update("CREATE TABLE bench_baseline (id bigserial PRIMARY KEY, body jsonb NOT NULL)");
                HttpServer bare = bareServer(ds);
                String bareUrl = "http://127.0.0.1:" + bare.getAddress().getPort() + "/";
                boolean jdk = System.getProperty("svc.bench.events.client", "lean").equals("jdk");
                System.out.println("load generator: " + (jdk ? "the JDK HttpClient (-Dsvc.bench.events.client=jdk)"
                        : "LeanHttp, requests serialized ahead (-Dsvc.bench.events.client=jdk: the JDK HttpClient)"));
                HttpClient jdkClient = jdk ? HttpClient.newBuilder().executor(Executors.newVirtualThreadPerTaskExecutor())
                        .build() : null;
                try (LeanHttp toKernel = new LeanHttp(URI.create(url)); LeanHttp toBare = new LeanHttp(URI.create(bareUrl))) {
                    Client<?> http = jdk ? Client.jdk(jdkClient) : Client.lean(toKernel, toBare, url);
                    for (int warm : Smoke.ON ? new int[] {100} : new int[] {300, 1000, 1500}) { // warm-up: let both paths be compiled first
                        run(http, url, warm, 4, true, false);
                        run(http, bareUrl, warm, 4, true, false);
                    }
                    for (int rate : Smoke.ON ? new int[] {200} : new int[] {500, 1000, 2000, 2000, 3000}) {
                        Result base = run(http, bareUrl, rate, SECONDS, true, false);
                        long flushes = walFlushes(ds);
                        Result ingest = run(http, url, rate, SECONDS, true, false);
                        flushes = walFlushes(ds) - flushes;
                        Smoke.require(base.ok() > 0 && ingest.ok() > 0 && ingest.bad() == 0, "rate " + rate
                                + "/s: bare " + base + ", ingest " + ingest);
                        System.out.printf("rate %d/s for %d s: bare HTTP+INSERT %s | ingest %s | p50 ratio %.1fx"
                                + " | %d WAL flushes, %.1f accepted per flush%n", rate, SECONDS, base, ingest,
                                ingest.p50() / base.p50(), flushes, ingest.ok() / (double) Math.max(1, flushes));
                    }
                    for (int rate : Smoke.ON ? new int[] {200} : new int[] {2000, 4000}) {
                        Result rejected = run(http, url, rate, SECONDS, false, true);
                        System.out.printf("rate %d/s for %d s, bad signature (401): %s%n", rate, SECONDS, rejected);
                        Smoke.require(rejected.ok() > 0, "no bad-signature request was answered 401");
                    }
                    long events = new Jdbc(ds).queryOne("SELECT count(*) FROM events", rs -> rs.getLong(1)).orElse(0L);
                    long audits = new Jdbc(ds).queryOne("SELECT count(*) FROM audit_rows WHERE op_id = "
                            + "'svc.events.ingest'", rs -> rs.getLong(1)).orElse(0L);
                    System.out.println("events stored: " + events + ", ingest audit rows: " + audits
                            + "; the database's synchronous_commit: " + new Jdbc(ds).queryOne("SHOW synchronous_commit",
                            rs -> rs.getString(1)).orElse("?"));
                    Smoke.require(events > 0 && audits > 0, "no event or no ingest audit row stored");
                } finally {
                    bare.stop(0);
                }
            }
        }
    }

    /**
     * WAL flushes (fsync and the like) the database has made so far: concurrent commits share one when PostgreSQL
     * groups them, so accepted events per flush above one shows the grouping (with fsync off the count stays 0).
     */
    private static long walFlushes(DataSource ds) {
        return new Jdbc(ds).queryOne("SELECT wal_sync FROM pg_stat_wal", rs -> rs.getLong(1)).orElse(0L);
    }

    /** The floor: read the body, one INSERT (auto-commit, durable), 200. */
    private static HttpServer bareServer(DataSource ds) throws Exception {
        HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1000);
        s.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        Jdbc jdbc = new Jdbc(ds);
        s.createContext("/", x -> {
            byte[] body = x.getRequestBody().readAllBytes();
            jdbc.update("INSERT INTO bench_baseline (body) VALUES (?::jsonb)", new String(body, StandardCharsets.UTF_8));
            x.sendResponseHeaders(200, -1);
            x.close();
        });
        s.start();
        return s;
    }

    /**
     * Latencies (ms) of the successful requests and the achieved rate; {@code others}: how many of the other answers
     * had each status (-1: no answer, an exception), so a refusal (429) reads apart from a failure.
     */
    record Result(double p50, double p99, double max, int ok, int bad, double perSecond, Map<Integer, Long> others) {
        @Override
        public String toString() {
            String why = others.isEmpty() ? "" : " " + others.entrySet().stream()
                    .map(e -> (e.getKey() < 0 ? "no answer" : String.valueOf(e.getKey())) + ": " + e.getValue())
                    .collect(java.util.stream.Collectors.joining(", ", "(", ")"));
            return String.format("%d ok (%.0f/s), %d other%s, p50 %.2f ms p99 %.2f ms max %.1f ms", ok, perSecond, bad,
                    why, p50, p99, max);
        }
    }

    private static final AtomicInteger SEQ = new AtomicInteger();
    private static final java.util.concurrent.atomic.AtomicReference<Exception> FIRST_FAILURE =
            new java.util.concurrent.atomic.AtomicReference<>();

    /**
     * The load generator: builds a request once, then sends it and returns the status.
     *
     * @param <R> a request as built, ready to send
     */
    private interface Client<R> {
        R build(String url, Map<String, String> headers, byte[] body);

        int send(R request) throws Exception;

        static Client<HttpRequest> jdk(HttpClient http) {
            return new Client<>() {
                public HttpRequest build(String url, Map<String, String> headers, byte[] body) {
                    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
                    headers.forEach(b::header);
                    return b.POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
                }

                public int send(HttpRequest request) throws Exception {
                    return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
                }
            };
        }

        /** A request serialized ahead, with the connection pool it goes to. */
        record Serialized(LeanHttp to, byte[] bytes) {
        }

        static Client<Serialized> lean(LeanHttp kernel, LeanHttp bare, String kernelUrl) {
            return new Client<>() {
                public Serialized build(String url, Map<String, String> headers, byte[] body) {
                    LeanHttp to = url.equals(kernelUrl) ? kernel : bare;
                    return new Serialized(to, to.request("POST", URI.create(url), headers, body));
                }

                public int send(Serialized request) throws Exception {
                    return request.to().send(request.bytes());
                }
            };
        }
    }

    private static <R> Result run(Client<R> http, String url, int rate, int seconds, boolean expectOk, boolean badSig)
            throws Exception {
        int n = rate * seconds;
        List<R> requests = new java.util.ArrayList<>(n);
        long ts = Instant.now().getEpochSecond() + seconds / 2;
        for (int i = 0; i < n; i++) {
            String id = "d-" + SEQ.incrementAndGet();
            byte[] body = ("{\"version\":\"4\",\"status\":\"firing\",\"groupKey\":\"" + id + "\",\"commonLabels\":"
                    + "{\"alertname\":\"HighLatency\",\"severity\":\"critical\"},\"alerts\":[{\"status\":\"firing\","
                    + "\"labels\":{\"alertname\":\"HighLatency\"},\"fingerprint\":\"" + id + "\"}]}")
                    .getBytes(StandardCharsets.UTF_8);
            requests.add(http.build(url, Map.of("Content-Type", "application/json", "webhook-id", id,
                    "webhook-timestamp", String.valueOf(ts), "webhook-signature",
                    badSig ? "v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=" : sign(id, ts, body)), body));
        }
        int expected = expectOk ? 200 : 401;
        Map<Integer, java.util.concurrent.atomic.LongAdder> others = new java.util.concurrent.ConcurrentSkipListMap<>();
        OpenLoop.Run run = OpenLoop.run(rate, n, i -> {
            int status = http.send(requests.get(i));
            if (status != expected) {
                others.computeIfAbsent(status, k -> new java.util.concurrent.atomic.LongAdder()).increment();
            }
            return status == expected;
        }, e -> { // an exception is a failed request, counted as one
            FIRST_FAILURE.compareAndSet(null, e);
            others.computeIfAbsent(-1, k -> new java.util.concurrent.atomic.LongAdder()).increment();
        });
        Exception failure = FIRST_FAILURE.getAndSet(null);
        if (failure != null) {
            System.out.println("  (" + run.failed() + " failed; the first: " + failure + ")");
        }
        long[] ok = run.ok();
        return new Result(pct(ok, 50), pct(ok, 99), ok.length == 0 ? Double.NaN : ok[ok.length - 1] / 1e6, ok.length,
                (int) run.failed(), ok.length / run.elapsedSeconds(), others.entrySet().stream().collect(
                        java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> e.getValue().sum(), Long::sum,
                                java.util.TreeMap::new)));
    }

    private static String sign(String id, long ts, byte[] body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        mac.update((id + "." + ts + ".").getBytes(StandardCharsets.UTF_8));
        return "v1," + Base64.getEncoder().encodeToString(mac.doFinal(body));
    }
}
