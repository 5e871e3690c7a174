package dev.backplane.kernel.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.testing.ChildKernels;
import dev.backplane.kernel.testing.ExternalPostgres;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.util.JsonMapping;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code SVC_LOG_FORMAT=json} on a real kernel process: every line it writes is one JSON object, and a
 * line written while serving a request carries that request's id and tenant; a bad value stops the
 * start with a configuration error.
 */
class JsonLogsIT {

    @Test
    void aJsonLoggingKernelWritesOneObjectALineWithRequestAndTenant(@TempDir Path work) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        UUID tenant = UUID.randomUUID();
        try (ExternalPostgres pg = ExternalPostgres.start(); TestIssuer issuer = new TestIssuer()) {
            int port = ChildKernels.freePort();
            Map<String, String> env = ChildKernels.settings(pg, issuer, work, port);
            env.put("SVC_LOG_FORMAT", "json");
            env.put("SVC_LOG_ACCESS", "true");
            Path log = work.resolve("kernel.log");
            Process kernel = ChildKernels.start(env, log);
            try {
                String base = "http://127.0.0.1:" + port;
                ChildKernels.awaitReady(http, base);
                // an unknown source's delivery (404, nothing logged), then a real source and a refused delivery to it
                var r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/events/ingest/es-nope-nope-nope-nope"))
                        .header("X-Request-Id", "json-log-1").POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).isEqualTo(404);
                var created = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/event-sources"))
                        .header("Authorization", "Bearer " + issuer.tenantAdmin(tenant)).header("X-Request-Id", "json-log-2")
                        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                                "{\"name\": \"logs\", \"kind\": \"generic-json\", \"auth_strategy\": \"static-header\", "
                                        + "\"secret\": \"json-logs-secret-0123456789\"}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
                String slug = JsonMapping.mapper().readTree(created.body()).path("slug").asText();
                // a delivery with a wrong secret is refused and logged (the reason only in the log)
                var refused = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/events/ingest/" + slug))
                        .header("X-Request-Id", "json-log-3").header("X-Svc-Token", "wrong-wrong-wrong-wrong")
                        .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(refused.statusCode()).isEqualTo(401);
                Thread.sleep(500);
            } finally {
                kernel.destroy();
                kernel.waitFor();
            }
            List<JsonNode> lines = new ArrayList<>();
            for (String line : Files.readAllLines(log)) {
                if (line.isBlank()) {
                    continue;
                }
                lines.add(JsonMapping.mapper().readTree(line)); // throws if any line is not JSON
            }
            assertThat(lines).anySatisfy(l -> assertThat(l.path("message").asText()).contains("ready at"));
            assertThat(lines).anySatisfy(l -> {
                assertThat(l.path("request_id").asText()).isEqualTo("json-log-3");
                assertThat(l.path("message").asText()).contains("refused");
            });
            assertThat(lines).allSatisfy(l -> assertThat(l.path("ts").asText()).isNotEmpty());
            // the access log: one line a request, with the route template (not the path), status and principal kind
            assertThat(lines).anySatisfy(l -> {
                assertThat(l.path("logger").asText()).isEqualTo("svc.access");
                assertThat(l.path("request_id").asText()).isEqualTo("json-log-2");
                assertThat(l.path("tenant_id").asText()).isEqualTo(tenant.toString());
                assertThat(l.path("message").asText()).contains("route=/api/v1/event-sources ", "status=201",
                        "principal_kind=human");
            });
            assertThat(lines).anySatisfy(l -> {
                assertThat(l.path("request_id").asText()).isEqualTo("json-log-3");
                assertThat(l.path("message").asText()).contains("route=/api/v1/events/ingest/{slug} ", "status=401");
            });
            assertThat(Files.readString(log)).as("the source's secret is in no log line")
                    .doesNotContain("json-logs-secret-0123456789");
        }
    }
}
