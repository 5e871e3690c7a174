package dev.backplane.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.ScriptedModel;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Event triggers at 1,000 triggers in one tenant: events arrive over the real ingest route at a fixed
 * rate (open loop), each matching exactly one trigger; measured in the database, per event: ingest
 * (the event's received_at) to the run row (enqueued in the drain's transaction) and to the run's
 * first turn (launched on a virtual thread). The model is a loopback OpenAI-compatible server that
 * answers at once, so the numbers are the backplane's own.
 */
public final class TriggersBench {

    private static final String SECRET = "bench-trigger-secret-0123456789";
    private static final int TRIGGERS = Smoke.size(1000, 50);
    private static final int SECONDS = Smoke.size(5, 1);

    private TriggersBench() {
    }

    public static void main(String[] args) throws Exception {
        Path work = TempDirs.create("svc-triggers-bench");
        UUID tenant = UUID.randomUUID();
        ObjectMapper json = new ObjectMapper();
        try (TestIssuer issuer = new TestIssuer(); ScriptedModel model = new ScriptedModel()) {
            model.otherwise(ScriptedModel.text("ok"));
            Map<String, String> env = TestKernel.settings(issuer, Files.createDirectories(work.resolve("plugins")));
            env.put("SVC_EVENTS_RATE_PER_SECOND", "100000");
            env.put("SVC_DB_POOL_SIZE", "32");
            env.put("SVC_AGENTS_MODEL_BASE_URL", model.baseUrl());
            try (TestKernel k = TestKernel.start(work.resolve("data"), env)) {
                String admin = issuer.token("admin", tenant, "tenant_admin");
                check(k.post("/api/v1/agent-principals", admin, Map.of("name", "bench-bot")));
                check(k.post("/api/v1/agents", admin, Map.of("name", "bench", "identity_ref", "bench-bot")));
                for (int i = 0; i < TRIGGERS; i++) {
                    check(k.post("/api/v1/scheduler/triggers", admin, Map.of("kind", "event", "agent_definition", "bench",
                            "event_filter", Map.of("status", "firing", "service", "svc-" + i, "labels",
                                    Map.of("severity", "critical")))));
                }
                String slug = k.post("/api/v1/event-sources", admin, Map.of("name", "bench", "kind", "generic-json",
                        "auth_strategy", "static-header", "secret", SECRET, "extras", Map.of("rate_per_second", 100000,
                                "burst", 100000))).json().path("slug").asText();
                String url = k.url() + "/api/v1/events/ingest/" + slug;
                Jdbc jdbc = new Jdbc(k.kernel().database().dataSource());
                jdbc.update("ANALYZE scheduler_triggers");
                System.out.println("plan of the match query: " + String.join(" | ", jdbc.query("EXPLAIN ANALYZE SELECT * "
                        + "FROM scheduler_triggers WHERE tenant_id = ? AND status = 'active' AND anchor = ANY(?::text[]) "
                        + "AND kind = 'event' AND ?::jsonb @> event_filter", rs -> rs.getString(1).strip(), tenant,
                        new String[] {"status=\"firing\"", "service=\"svc-7\"", "*"},
                        "{\"status\": \"firing\", \"service\": \"svc-7\", \"labels\": {\"severity\": \"critical\"}}")));
                HttpClient http = HttpClient.newBuilder().executor(Executors.newVirtualThreadPerTaskExecutor()).build();
                send(http, url, 50, Smoke.size(2, 1)); // warm-up
                awaitRuns(jdbc, tenant, Smoke.size(100, 50));
                for (int rate : Smoke.ON ? new int[] {20} : new int[] {50, 100, 200, 400}) {
                    long before = runs(jdbc, tenant);
                    String since = jdbc.queryOne("SELECT now()::text", rs -> rs.getString(1)).orElseThrow();
                    int sent = send(http, url, rate, SECONDS);
                    Smoke.require(sent > 0, "no event acknowledged at " + rate + "/s");
                    long t0 = System.nanoTime();
                    awaitRuns(jdbc, tenant, before + sent);
                    double drainSeconds = (System.nanoTime() - t0) / 1e9;
                    List<String> stats = jdbc.query("""
                            SELECT count(*),
                                   percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM r.created_at - e.received_at)),
                                   percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM r.created_at - e.received_at)),
                                   percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM s.occurred_at - e.received_at)),
                                   percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM s.occurred_at - e.received_at)),
                                   extract(epoch FROM max(s.occurred_at) - min(e.received_at))
                            FROM agent_runs r JOIN events e ON e.id = r.event_id
                            JOIN agent_run_events s ON s.handle = r.handle AND s.seq = 1
                            WHERE r.tenant_id = ? AND e.received_at >= ?::timestamptz""", rs -> String.format(
                                    "%d runs; ingest -> run row p50 %.1f ms p99 %.1f ms; ingest -> run started p50 %.1f ms "
                                    + "p99 %.1f ms; %.0f events/s ingest to run started",
                                    rs.getLong(1), rs.getDouble(2) * 1000, rs.getDouble(3) * 1000, rs.getDouble(4) * 1000,
                                    rs.getDouble(5) * 1000, rs.getLong(1) / Math.max(0.001, rs.getDouble(6))), tenant, since);
                    System.out.printf("rate %d/s for %d s, %d triggers: %s (the last run row %.1f s after the last send)%n",
                            rate, SECONDS, TRIGGERS, stats.get(0), drainSeconds);
                }
            }
        }
    }

    private static void check(TestKernel.Response r) {
        if (r.status() != 201) {
            throw new IllegalStateException(r.status() + " " + r.body());
        }
    }

    private static long runs(Jdbc jdbc, UUID tenant) {
        return jdbc.queryOne("SELECT count(*) FROM agent_runs r JOIN agent_run_events s ON s.handle = r.handle AND s.seq = 1 "
                + "WHERE r.tenant_id = ?", rs -> rs.getLong(1), tenant).orElseThrow();
    }

    private static void awaitRuns(Jdbc jdbc, UUID tenant, long expected) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (runs(jdbc, tenant) < expected) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + runs(jdbc, tenant) + " of " + expected + " runs started");
            }
            Thread.sleep(20);
        }
    }

    /** Open loop: one delivery every 1/rate s for {@code seconds}; answers the number acknowledged. */
    private static int send(HttpClient http, String url, int rate, int seconds) throws InterruptedException {
        int n = rate * seconds;
        AtomicInteger ok = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(n);
        ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
        long interval = 1_000_000_000L / rate;
        for (int i = 0; i < n; i++) {
            String body = "{\"status\": \"firing\", \"service\": \"svc-" + ThreadLocalRandom.current().nextInt(TRIGGERS)
                    + "\", \"labels\": {\"severity\": \"critical\", \"n\": \"" + UUID.randomUUID() + "\"}}";
            clock.schedule(() -> Thread.ofVirtual().start(() -> {
                try {
                    var r = http.send(HttpRequest.newBuilder(URI.create(url)).header("X-Svc-Token", SECRET)
                            .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.discarding());
                    if (r.statusCode() == 200) {
                        ok.incrementAndGet();
                    }
                } catch (Exception e) {
                    // counted as not acknowledged
                } finally {
                    done.countDown();
                }
            }), i * interval, TimeUnit.NANOSECONDS);
        }
        done.await(seconds + 60L, TimeUnit.SECONDS);
        clock.shutdownNow();
        return ok.get();
    }
}
