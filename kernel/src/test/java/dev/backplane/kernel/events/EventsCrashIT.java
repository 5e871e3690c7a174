package dev.backplane.kernel.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.testing.ChildKernels;
import dev.backplane.kernel.testing.ExternalPostgres;
import dev.backplane.kernel.testing.TestIssuer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * kill -9 of a kernel process while senders post continuously (loopback, bounded), then a restart on
 * the same database: every delivery that got a 2xx is in the event log exactly once, with its audit
 * row; a sender that retries a delivery whose answer was lost in the crash gets the same event back.
 */
class EventsCrashIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SECRET = "crash-test-secret-0123456789";
    private static final int DELIVERIES = 1200;
    private static final int SENDERS = 4;

    @Test
    void everyAcknowledgedDeliverySurvivesAKillMinus9ExactlyOnce() throws Exception {
        Path work = Files.createTempDirectory("svc-events-crash");
        UUID tenant = UUID.randomUUID();
        try (ExternalPostgres pg = ExternalPostgres.start(); TestIssuer issuer = new TestIssuer()) {
            int port = ChildKernels.freePort();
            Map<String, String> env = ChildKernels.settings(pg, issuer, work, port);
            env.put("SVC_EVENTS_RATE_PER_SECOND", "100000");
            String base = "http://127.0.0.1:" + port;
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

            Process first = ChildKernels.start(env, work.resolve("kernel-1.log"));
            Process second = null;
            try {
                ChildKernels.awaitReady(http, base);
                var created = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/event-sources"))
                        .header("Authorization", "Bearer " + issuer.token("admin", tenant, "tenant_admin"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(Map.of("name", "crash",
                                "kind", "generic-json", "auth_strategy", "static-header", "secret", SECRET,
                                "extras", Map.of("rate_per_second", 100000, "burst", 100000)))))
                        .build(), HttpResponse.BodyHandlers.ofString());
                assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
                String slug = JSON.readTree(created.body()).path("slug").asText();

                Map<Integer, String> acknowledged = new ConcurrentHashMap<>();
                Set<String> eventIds = ConcurrentHashMap.newKeySet();
                AtomicInteger next = new AtomicInteger();
                AtomicInteger failures = new AtomicInteger();
                long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
                Thread[] senders = new Thread[SENDERS];
                for (int t = 0; t < SENDERS; t++) {
                    senders[t] = Thread.ofVirtual().start(() -> {
                        for (int i = next.getAndIncrement(); i < DELIVERIES && System.nanoTime() < deadline;
                             i = next.getAndIncrement()) {
                            // like a real sender: retry the same delivery id until it is acknowledged
                            while (System.nanoTime() < deadline) {
                                try {
                                    var r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/events/ingest/" + slug))
                                            .timeout(Duration.ofSeconds(10)).header("X-Svc-Token", SECRET)
                                            .header("webhook-id", "delivery-" + i)
                                            .POST(HttpRequest.BodyPublishers.ofString("{\"n\":" + i + "}",
                                                    StandardCharsets.UTF_8)).build(), HttpResponse.BodyHandlers.ofString());
                                    if (r.statusCode() == 200) {
                                        String id = JSON.readTree(r.body()).path("event_id").asText();
                                        String before = acknowledged.putIfAbsent(i, id);
                                        assertThat(before == null || before.equals(id)).isTrue();
                                        eventIds.add(id);
                                        break;
                                    }
                                    failures.incrementAndGet();
                                } catch (IOException e) {
                                    failures.incrementAndGet();
                                } catch (InterruptedException e) {
                                    return;
                                }
                                sleep(50);
                            }
                        }
                    });
                }
                while (acknowledged.size() < DELIVERIES / 4) {
                    assertThat(System.nanoTime()).as("senders make progress").isLessThan(deadline);
                    Thread.sleep(10);
                }
                first.destroyForcibly(); // SIGKILL: no shutdown hook, no flush
                first.waitFor();
                int atKill = acknowledged.size();
                second = ChildKernels.start(env, work.resolve("kernel-2.log"));
                for (Thread s : senders) {
                    s.join(Duration.ofSeconds(150));
                }
                System.out.printf("EventsCrashIT: killed after %d of %d acknowledged; %d refused or failed requests "
                        + "around the crash; %d deliveries in the end%n", atKill, DELIVERIES, failures.get(),
                        acknowledged.size());
                assertThat(atKill).as("killed mid-stream").isLessThan(DELIVERIES);
                assertThat(acknowledged).as("every delivery acknowledged in the end").hasSize(DELIVERIES);
                assertThat(failures.get()).as("the crash was felt by the senders").isPositive();

                try (Connection c = DriverManager.getConnection(pg.jdbcUrl(), ExternalPostgres.USER, ExternalPostgres.PASSWORD)) {
                    ResultSet rs = c.createStatement().executeQuery("SELECT count(*), count(DISTINCT delivery_id), "
                            + "count(a.id) FROM events e LEFT JOIN audit_rows a ON a.id = e.audit_id "
                            + "WHERE e.source_slug = '" + slug + "'");
                    rs.next();
                    assertThat(rs.getLong(1)).as("each delivery stored exactly once").isEqualTo(DELIVERIES);
                    assertThat(rs.getLong(2)).isEqualTo(DELIVERIES);
                    assertThat(rs.getLong(3)).as("each with its audit row").isEqualTo(DELIVERIES);
                    ResultSet ids = c.createStatement().executeQuery("SELECT id::text FROM events WHERE source_slug = '"
                            + slug + "'");
                    Set<String> stored = new java.util.HashSet<>();
                    while (ids.next()) {
                        stored.add(ids.getString(1));
                    }
                    assertThat(stored).as("every acknowledged event id is stored").containsAll(eventIds);
                }
            } finally {
                first.destroyForcibly();
                if (second != null) {
                    second.destroy();
                    second.waitFor();
                }
            }
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
