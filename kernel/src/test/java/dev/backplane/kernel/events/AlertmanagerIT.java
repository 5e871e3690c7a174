package dev.backplane.kernel.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A real Prometheus Alertmanager (Debian's {@code prometheus-alertmanager}, installed by
 * {@code bin/test-deps.sh}) posts its webhook notifications to the kernel: one receiver with HTTP
 * Basic, one with a bearer {@code Authorization} header (a static-header source). Alerts are raised
 * through Alertmanager's own API; the events arrive normalised, once per notification.
 */
class AlertmanagerIT {

    private static final Path BINARY = Path.of("/usr/bin/prometheus-alertmanager");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String SECRET = "am-basic-secret-" + UUID.randomUUID();
    private static final String TOKEN = "am-bearer-token-" + UUID.randomUUID();

    @Test
    void alertmanagerNotificationsArriveNormalisedOnce() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(BINARY), "Alertmanager is not installed at " + BINARY
                + " (./test installs the Debian package prometheus-alertmanager as root); not run");
        Path work = TempDirs.create("svc-alertmanager-it");
        UUID tenant = UUID.randomUUID();
        try (TestIssuer issuer = new TestIssuer();
             TestKernel kernel = TestKernel.start(work.resolve("data"),
                     TestKernel.settings(issuer, Files.createDirectories(work.resolve("plugins"))))) {
            String admin = issuer.token("admin", tenant, "tenant_admin");
            String basicSlug = create(kernel, admin, Map.of("name", "am-basic", "kind", "alertrouter",
                    "auth_strategy", "basic", "secret", SECRET, "extras", Map.of("basic_username", "alertmanager")));
            String bearerSlug = create(kernel, admin, Map.of("name", "am-bearer", "kind", "alertrouter",
                    "auth_strategy", "static-header", "secret", "Bearer " + TOKEN,
                    "extras", Map.of("secret_header", "Authorization")));
            int port = freePort();
            Path config = work.resolve("alertmanager.yml");
            Files.writeString(config, """
                    route:
                      receiver: kernel-basic
                      group_by: ['alertname']
                      group_wait: 1s
                      group_interval: 1s
                      repeat_interval: 1h
                      routes:
                        - receiver: kernel-bearer
                          matchers: ['via="bearer"']
                    receivers:
                      - name: kernel-basic
                        webhook_configs:
                          - url: %s/api/v1/events/ingest/%s
                            send_resolved: true
                            http_config:
                              basic_auth: {username: alertmanager, password: %s}
                      - name: kernel-bearer
                        webhook_configs:
                          - url: %s/api/v1/events/ingest/%s
                            http_config:
                              authorization: {type: Bearer, credentials: %s}
                    """.formatted(kernel.url(), basicSlug, SECRET, kernel.url(), bearerSlug, TOKEN));
            Process am = new ProcessBuilder(BINARY.toString(), "--config.file=" + config,
                    "--storage.path=" + work.resolve("am-data"), "--web.listen-address=127.0.0.1:" + port,
                    "--cluster.listen-address=").redirectErrorStream(true)
                    .redirectOutput(work.resolve("alertmanager.log").toFile()).start();
            try {
                String api = "http://127.0.0.1:" + port;
                await("Alertmanager ready", () -> status(api + "/-/ready") == 200);
                String now = Instant.now().toString();
                post(api + "/api/v2/alerts", List.of(
                        Map.of("labels", Map.of("alertname", "DiskFull", "severity", "critical", "instance", "db1"),
                                "annotations", Map.of("summary", "disk full on db1"), "startsAt", now),
                        Map.of("labels", Map.of("alertname", "DiskFull", "severity", "critical", "instance", "db2"),
                                "startsAt", now)));
                post(api + "/api/v2/alerts", List.of(Map.of("labels", Map.of("alertname", "CertExpiry",
                        "severity", "warning", "via", "bearer"), "startsAt", now)));

                await("the basic-auth notification", () -> events(kernel, admin, basicSlug).size() >= 1);
                await("the bearer notification", () -> events(kernel, admin, bearerSlug).size() >= 1);
                Thread.sleep(4_000); // several group intervals: Alertmanager must not be made to send twice
                JsonNode basic = events(kernel, admin, basicSlug);
                assertThat(basic).as("one event per notification, not one per alert").hasSize(1);
                JsonNode e = kernel.get("/api/v1/events/" + basic.get(0).path("id").asText(), admin).json()
                        .path("envelope");
                assertThat(e.path("status").asText()).isEqualTo("firing");
                assertThat(e.path("event_type").asText()).isEqualTo("alert.firing");
                assertThat(e.path("labels").path("alertname").asText()).isEqualTo("DiskFull");
                assertThat(e.path("labels").path("severity").asText()).isEqualTo("critical");
                assertThat(e.path("alerts_count").asInt()).isEqualTo(2);
                assertThat(e.path("raw").path("version").asText()).isEqualTo("4");
                assertThat(e.path("raw").path("alerts")).hasSize(2);
                JsonNode bearer = events(kernel, admin, bearerSlug);
                assertThat(bearer).hasSize(1);
                assertThat(bearer.get(0).path("summary").path("labels").path("severity").asText()).isEqualTo("warning");

                // resolving the alerts sends one resolved notification
                String ended = Instant.now().toString();
                post(api + "/api/v2/alerts", List.of(
                        Map.of("labels", Map.of("alertname", "DiskFull", "severity", "critical", "instance", "db1"),
                                "startsAt", now, "endsAt", ended),
                        Map.of("labels", Map.of("alertname", "DiskFull", "severity", "critical", "instance", "db2"),
                                "startsAt", now, "endsAt", ended)));
                await("the resolved notification", () -> events(kernel, admin, basicSlug).size() >= 2);
                JsonNode after = events(kernel, admin, basicSlug);
                assertThat(after.get(0).path("event_type").asText()).isEqualTo("alert.resolved");
                long audits = new Jdbc(kernel.kernel().database().dataSource()).queryOne(
                        "SELECT count(*) FROM audit_rows WHERE tenant_id = ? AND op_id = 'svc.events.ingest'",
                        rs -> rs.getLong(1), tenant).orElseThrow();
                assertThat(audits).as("one audit row per accepted event").isEqualTo(after.size() + bearer.size());
            } finally {
                am.destroy();
                am.waitFor();
            }
        }
    }

    private static String create(TestKernel kernel, String admin, Map<String, Object> body) throws Exception {
        var r = kernel.send("POST", "/api/v1/event-sources", admin, JSON.writeValueAsString(body), Map.of());
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        return r.json().path("slug").asText();
    }

    private static JsonNode events(TestKernel kernel, String token, String slug) {
        return kernel.get("/api/v1/events?source=" + slug, token).json().path("events");
    }

    private static void post(String url, Object body) throws Exception {
        var r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    private static int status(String url) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static void await(String what, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!done.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what + " within 30 s").isLessThan(deadline);
            Thread.sleep(200);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
