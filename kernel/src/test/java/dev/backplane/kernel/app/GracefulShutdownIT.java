package dev.backplane.kernel.app;

import static dev.backplane.kernel.testing.ScriptedModel.text;
import static dev.backplane.kernel.testing.ScriptedModel.toolCall;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.testing.ChildKernels;
import dev.backplane.kernel.testing.ExternalPostgres;
import dev.backplane.kernel.testing.ScriptedModel;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Two kernels in their own JVMs on one PostgreSQL, as replicas; SIGTERM to one of them while an agent run
 * it executes waits for a model answer and a broadcast stream is open on it. Readiness (on the management
 * listener) turns 503 at once while liveness stays 200; the stream ends with a last event saying to
 * reconnect; the run is handed off and finishes on the other replica, asked the cut-off turn again, with
 * its first turn's tool result carried over and nothing run twice; the kernel exits within delay + drain.
 */
class GracefulShutdownIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aStoppingReplicaHandsItsRunOffAndLeavesCleanly() throws Exception {
        Path work = TempDirs.create("svc-graceful");
        UUID tenant = UUID.randomUUID();
        try (ExternalPostgres pg = ExternalPostgres.start(); TestIssuer issuer = new TestIssuer();
             ScriptedModel model = ScriptedModel.concurrent()) {
            int portA = ChildKernels.freePort();
            int managementA = ChildKernels.freePort();
            int portB = ChildKernels.freePort();
            Map<String, String> envA = ChildKernels.settings(pg, issuer, work.resolve("a"), portA);
            envA.put("SVC_AGENTS_MODEL_BASE_URL", model.baseUrl());
            envA.put("SVC_SERVER_MANAGEMENT_PORT", String.valueOf(managementA));
            envA.put("SVC_SERVER_SHUTDOWN_DELAY_SECONDS", "2");
            envA.put("SVC_SERVER_SHUTDOWN_DRAIN_SECONDS", "15");
            Map<String, String> envB = ChildKernels.settings(pg, issuer, work.resolve("b"), portB);
            envB.put("SVC_AGENTS_MODEL_BASE_URL", model.baseUrl());
            String a = "http://127.0.0.1:" + portA;
            String b = "http://127.0.0.1:" + portB;
            String management = "http://127.0.0.1:" + managementA;
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
            String admin = issuer.token("admin", tenant, "tenant_admin");

            Process kernelA = ChildKernels.start(envA, work.resolve("kernel-a.log"));
            Process kernelB = null;
            try {
                ChildKernels.awaitReady(http, management, "kernel A ready on its management port (log: "
                        + work.resolve("kernel-a.log") + ")");
                // health and metrics live on the management listener only
                assertThat(send(http, "GET", a + "/health/ready", null, null).statusCode()).isEqualTo(404);
                assertThat(send(http, "GET", a + "/metrics", null, null).statusCode()).isEqualTo(404);
                assertThat(send(http, "GET", management + "/metrics", null, null).body()).contains("# TYPE");
                kernelB = ChildKernels.start(envB, work.resolve("kernel-b.log"));
                ChildKernels.awaitReady(http, b, "kernel B ready (log: " + work.resolve("kernel-b.log") + ")");

                expect(201, send(http, "POST", a + "/api/v1/agent-principals", admin, Map.of("name", "handoff-bot")));
                expect(201, send(http, "POST", a + "/api/v1/agents", admin, Map.of("name", "handoff",
                        "identity_ref", "handoff-bot")));
                // turn 1 lists targets (a tool result the run must carry over); turn 2 waits for an answer that
                // only comes once the run has moved to B
                model.then(toolCall("list_targets", Map.of()));
                HttpResponse<String> started = send(http, "POST", a + "/api/v1/agents/handoff/runs", admin,
                        Map.of("input", "what targets are there?", "async", true));
                expect(202, started);
                String handle = JSON.readTree(started.body()).path("handle").asText();
                awaitTrue("the run waits for its second model answer on A", () -> model.requests().size() >= 2);

                // a broadcast stream open on A
                CompletableFuture<HttpResponse<Stream<String>>> stream = http.sendAsync(HttpRequest.newBuilder(
                        URI.create(a + "/api/v1/broadcast/stream")).header("Authorization", "Bearer " + admin).build(),
                        HttpResponse.BodyHandlers.ofLines());
                HttpResponse<Stream<String>> streaming = stream.get(10, TimeUnit.SECONDS);
                assertThat(streaming.statusCode()).isEqualTo(200);
                CompletableFuture<List<String>> lines = CompletableFuture.supplyAsync(() -> streaming.body().toList());

                long t0 = System.nanoTime();
                kernelA.destroy(); // SIGTERM
                awaitTrue("A's readiness turns 503 at once", () -> {
                    HttpResponse<String> r = sendQuietly(http, management + "/health/ready");
                    return r != null && r.statusCode() == 503 && r.body().contains("\"accepting\":\"DOWN\"");
                });
                long readinessMs = Duration.ofNanos(System.nanoTime() - t0).toMillis();
                assertThat(sendQuietly(http, management + "/health/live").statusCode()).as("liveness stays up")
                        .isEqualTo(200);
                assertThat(lines.get(10, TimeUnit.SECONDS)).as("the stream ends with a last event")
                        .anyMatch(l -> l.equals("event: dropped"))
                        .anyMatch(l -> l.contains("shutting down") && l.contains("Last-Event-ID"));

                // B continues the run: it asks turn 2 again; the two answers queued go to whichever waits
                awaitTrue("B asks the model the cut-off turn again", () -> model.requests().size() >= 3);
                model.then(text("one target: none"), text("one target: none"));
                assertThat(kernelA.waitFor(2 + 15 + 10, TimeUnit.SECONDS)).as("A exits within delay + drain").isTrue();
                long exitMs = Duration.ofNanos(System.nanoTime() - t0).toMillis();

                JsonNode run = awaitRun(http, b, admin, handle);
                assertThat(run.path("status").asText()).as(run.toString()).isEqualTo("succeeded");
                assertThat(run.path("output").path("text").asText()).isEqualTo("one target: none");
                JsonNode events = JSON.readTree(send(http, "GET", b + "/api/v1/agent-runs/" + handle + "/events", admin,
                        null).body()).path("events");
                List<String> kinds = events.findValuesAsText("kind");
                assertThat(kinds).as(kinds.toString()).containsSubsequence("tool_call", "tool_result", "turn_started",
                        "handed_off", "resumed", "turn_started", "final_output");
                assertThat(kinds.stream().filter("tool_call"::equals).count()).as("the tool ran once").isEqualTo(1);
                // the resumed turn carried the first turn's tool result to the model
                JsonNode resumedAsk = model.requests().get(model.requests().size() - 1);
                assertThat(ScriptedModel.transcript(resumedAsk)).contains("TOOL RESULT").contains("what targets are there?");
                try (Connection c = DriverManager.getConnection(pg.jdbcUrl(), ExternalPostgres.USER, ExternalPostgres.PASSWORD)) {
                    assertThat(count(c, "SELECT count(*) FROM audit_rows WHERE op_id = 'svc.agent_runs.run' AND session_id = '"
                            + handle + "'")).as("one audit row for the run").isEqualTo(1);
                    assertThat(count(c, "SELECT count(*) FROM audit_rows WHERE result_status = 'started'"))
                            .as("no audit row left started").isZero();
                    assertThat(count(c, "SELECT count(*) FROM agent_runs WHERE resume_state IS NOT NULL")).isZero();
                }
                String logA = Files.readString(work.resolve("kernel-a.log"));
                logA.lines().dropWhile(l -> !l.contains("shutting down")).forEach(l -> System.out.println("A| " + l));
                assertThat(logA).contains("handed off at turn 2").contains("drained in");
                System.out.printf("GracefulShutdownIT: readiness 503 after %d ms, kernel A exited after %d ms "
                        + "(delay 2 s, drain up to 15 s)%n", readinessMs, exitMs);
            } finally {
                kernelA.destroyForcibly();
                if (kernelB != null) {
                    kernelB.destroy();
                    kernelB.waitFor(30, TimeUnit.SECONDS);
                    kernelB.destroyForcibly();
                }
            }
        } finally {
            try (Stream<Path> files = Files.walk(work)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static JsonNode awaitRun(HttpClient http, String base, String token, String handle) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            JsonNode run = JSON.readTree(send(http, "GET", base + "/api/v1/agent-runs/" + handle, token, null).body());
            String status = run.path("status").asText();
            if (List.of("succeeded", "failed", "cancelled").contains(status)) {
                return run;
            }
            assertThat(System.nanoTime()).as("the run finishes on B: " + run).isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    private interface Check {
        boolean ok() throws Exception;
    }

    private static void awaitTrue(String what, Check check) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!check.ok()) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.sleep(25);
        }
    }

    private static HttpResponse<String> sendQuietly(HttpClient http, String url) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException | InterruptedException e) {
            return null;
        }
    }

    private static void expect(int status, HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    }

    private static HttpResponse<String> send(HttpClient http, String method, String url, String token, Object body)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json").method(method, body == null
                        ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static long count(Connection c, String sql) throws Exception {
        try (ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
