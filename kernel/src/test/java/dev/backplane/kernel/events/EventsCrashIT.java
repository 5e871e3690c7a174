package dev.backplane.kernel.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.testing.ChildKernels;
import dev.backplane.kernel.testing.ExternalPostgres;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * kill -9 of a kernel process while senders post continuously (loopback, bounded), then a restart on
 * the same database: every delivery that got a 2xx is in the event log exactly once, with its audit
 * row; a sender that retries a delivery whose answer was lost in the crash gets the same event back.
 * Whether a delivery the first kernel committed lost its answer in this run depends on where the kill
 * lands (it is counted and printed), so after the restart every delivery is sent again: each answers
 * 200 {@code duplicate: true} with the event id its first acknowledgement named, and nothing is added.
 */
class EventsCrashIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SECRET = "crash-test-secret-0123456789";
    private static final int DELIVERIES = 1200;
    private static final int SENDERS = 4;

    @Test
    void everyAcknowledgedDeliverySurvivesAKillMinus9ExactlyOnce() throws Exception {
        Path work = TempDirs.create("svc-events-crash");
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
                // per delivery: an attempt before the acknowledged one failed (no answer, or not 200)
                Set<Integer> retried = ConcurrentHashMap.newKeySet();
                // per delivery: the acknowledgement said duplicate (an earlier attempt had been committed)
                Set<Integer> answeredDuplicate = ConcurrentHashMap.newKeySet();
                // per delivery: an attempt got no answer (refused, reset or timed out: IOException)
                Set<Integer> noAnswer = ConcurrentHashMap.newKeySet();
                List<Throwable> senderFailures = new CopyOnWriteArrayList<>();
                AtomicInteger next = new AtomicInteger();
                AtomicInteger failures = new AtomicInteger();
                long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
                Thread[] senders = new Thread[SENDERS];
                for (int t = 0; t < SENDERS; t++) {
                    senders[t] = Thread.ofVirtual().start(() -> {
                        try {
                            for (int i = next.getAndIncrement(); i < DELIVERIES && System.nanoTime() < deadline;
                                 i = next.getAndIncrement()) {
                                // like a real sender: retry the same delivery id until it is acknowledged
                                while (System.nanoTime() < deadline) {
                                    try {
                                        var r = deliver(http, base, slug, i);
                                        if (r.statusCode() == 200) {
                                            var answer = JSON.readTree(r.body());
                                            acknowledged.put(i, answer.path("event_id").asText());
                                            eventIds.add(answer.path("event_id").asText());
                                            if (answer.path("duplicate").asBoolean()) {
                                                answeredDuplicate.add(i);
                                            }
                                            break;
                                        }
                                        retried.add(i);
                                        failures.incrementAndGet();
                                    } catch (IOException e) { // refused, reset or timed out: the answer, if any, is lost
                                        retried.add(i);
                                        noAnswer.add(i);
                                        failures.incrementAndGet();
                                    }
                                    Thread.sleep(50);
                                }
                            }
                        } catch (Throwable e) { // an assertion or exception here must fail the test, not end a thread
                            senderFailures.add(e);
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
                    assertThat(s.join(Duration.ofSeconds(150))).as("sender finished").isTrue();
                }
                Set<Integer> noAnswerThenDuplicate = new java.util.TreeSet<>(noAnswer);
                noAnswerThenDuplicate.retainAll(answeredDuplicate);
                System.out.printf("EventsCrashIT: killed after %d of %d acknowledged; %d refused or failed requests "
                        + "around the crash; %d deliveries in the end; %d deliveries retried, %d of them after an attempt "
                        + "with no answer, %d answered duplicate (the kernel had committed an attempt whose answer was "
                        + "lost: %s)%n", atKill, DELIVERIES, failures.get(), acknowledged.size(), retried.size(),
                        noAnswer.size(), answeredDuplicate.size(), noAnswerThenDuplicate);
                assertThat(senderFailures).as("senders ended without an exception").isEmpty();
                assertThat(atKill).as("killed mid-stream").isLessThan(DELIVERIES);
                assertThat(acknowledged).as("every delivery acknowledged in the end").hasSize(DELIVERIES);
                assertThat(failures.get()).as("the crash was felt by the senders").isPositive();
                assertThat(noAnswer).as("some attempts got no answer around the crash").isNotEmpty();
                assertThat(answeredDuplicate).as("only a delivery sent before can be answered duplicate")
                        .isSubsetOf(retried);

                // every delivery again, as a sender that lost its answers would: the same event back, nothing added
                List<String> notTheSame = new ArrayList<>();
                for (int i = 0; i < DELIVERIES; i++) {
                    var r = deliver(http, base, slug, i);
                    var answer = r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
                    if (answer == null || !answer.path("duplicate").asBoolean()
                            || !answer.path("event_id").asText().equals(acknowledged.get(i))) {
                        notTheSame.add("delivery-" + i + ": " + r.statusCode() + " " + r.body() + " (acknowledged as "
                                + acknowledged.get(i) + ")");
                    }
                }
                assertThat(notTheSame).as("redeliveries after the restart that did not get their event back as a "
                        + "duplicate").isEmpty();

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

    private static HttpResponse<String> deliver(HttpClient http, String base, String slug, int i)
            throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/events/ingest/" + slug))
                .timeout(Duration.ofSeconds(10)).header("X-Svc-Token", SECRET).header("webhook-id", "delivery-" + i)
                .POST(HttpRequest.BodyPublishers.ofString("{\"n\":" + i + "}", StandardCharsets.UTF_8)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
