package dev.backplane.kernel.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * kill -9 of a kernel while a burst of matching events is being drained and its runs execute, then a
 * restart on the same database: every event fired exactly one run (counted in the database), runs that
 * were waiting to start are started by the new kernel, and runs that were executing when the kernel
 * died are failed by the reaper as orphans — never run again.
 */
class TriggersCrashIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SECRET = "trigger-crash-secret-0123456789";
    private static final int EVENTS = 150;

    @Test
    void everyEventFiresExactlyOneRunAcrossAKillMinus9() throws Exception {
        Path work = TempDirs.create("svc-triggers-crash");
        UUID tenant = UUID.randomUUID();
        try (ExternalPostgres pg = ExternalPostgres.start(); TestIssuer issuer = new TestIssuer();
             ScriptedModel model = new ScriptedModel()) {
            model.otherwise(ScriptedModel.slow(400, ScriptedModel.text("handled")));
            int port = ChildKernels.freePort();
            Map<String, String> env = ChildKernels.settings(pg, issuer, work, port);
            env.put("SVC_EVENTS_RATE_PER_SECOND", "100000");
            env.put("SVC_AGENTS_MODEL_BASE_URL", model.baseUrl());
            env.put("SVC_AGENTS_RUN_LEASE_SECONDS", "6");
            String base = "http://127.0.0.1:" + port;
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
            String admin = issuer.token("admin", tenant, "tenant_admin");

            Process first = ChildKernels.start(env, work.resolve("kernel-1.log"));
            Process second = null;
            try {
                ChildKernels.awaitReady(http, base);
                post(http, base + "/api/v1/agent-principals", admin, Map.of("name", "crash-bot"));
                post(http, base + "/api/v1/agents", admin, Map.of("name", "crash", "identity_ref", "crash-bot"));
                post(http, base + "/api/v1/scheduler/triggers", admin, Map.of("kind", "event", "agent_definition", "crash",
                        "event_filter", Map.of("kind", "burst")));
                String slug = JSON.readTree(post(http, base + "/api/v1/event-sources", admin, Map.of("name", "burst",
                        "kind", "generic-json", "auth_strategy", "static-header", "secret", SECRET,
                        "extras", Map.of("rate_per_second", 100000, "burst", 100000)))).path("slug").asText();
                for (int i = 0; i < EVENTS; i++) {
                    var r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/events/ingest/" + slug))
                            .header("X-Svc-Token", SECRET).POST(HttpRequest.BodyPublishers.ofString(
                                    "{\"kind\": \"burst\", \"n\": " + i + "}")).build(), HttpResponse.BodyHandlers.ofString());
                    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                }
                try (Connection c = db(pg)) {
                    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                    while (count(c, "SELECT count(*) FROM agent_runs WHERE tenant_id = '" + tenant + "' AND status = "
                            + "'running'") < 3 || count(c, "SELECT count(*) FROM agent_runs WHERE status = 'succeeded'") < 1) {
                        assertThat(System.nanoTime()).as("runs under way").isLessThan(deadline);
                        Thread.sleep(20);
                    }
                }
                first.destroyForcibly(); // SIGKILL mid-drain, runs in flight
                first.waitFor();
                long requestsAtKill = model.requests().size();
                second = ChildKernels.start(env, work.resolve("kernel-2.log"));
                ChildKernels.awaitReady(http, base);
                try (Connection c = db(pg)) {
                    long deadline = System.nanoTime() + Duration.ofSeconds(150).toNanos();
                    while (count(c, "SELECT count(*) FROM agent_runs WHERE tenant_id = '" + tenant + "' AND status IN "
                            + "('succeeded', 'failed', 'cancelled')") < EVENTS) {
                        assertThat(System.nanoTime()).as("every run ends").isLessThan(deadline);
                        Thread.sleep(200);
                    }
                    long runs = count(c, "SELECT count(*) FROM agent_runs WHERE tenant_id = '" + tenant + "'");
                    long fired = count(c, "SELECT count(DISTINCT event_id) FROM agent_runs WHERE tenant_id = '" + tenant + "'");
                    long fires = count(c, "SELECT count(*) FROM scheduler_trigger_fires");
                    long orphaned = count(c, "SELECT count(*) FROM agent_runs WHERE error_code = 'run_orphaned'");
                    long succeeded = count(c, "SELECT count(*) FROM agent_runs WHERE status = 'succeeded'");
                    long audited = count(c, "SELECT count(*) FROM audit_rows WHERE op_id = 'svc.agent_runs.orphaned'");
                    System.out.printf("TriggersCrashIT: %d events, %d runs, %d succeeded, %d orphaned (failed), "
                            + "%d model requests at the kill, %d in the end%n", EVENTS, runs, succeeded, orphaned,
                            requestsAtKill, model.requests().size());
                    assertThat(runs).as("one run per event, across the crash").isEqualTo(EVENTS);
                    assertThat(fired).isEqualTo(EVENTS);
                    assertThat(fires).isEqualTo(EVENTS);
                    assertThat(orphaned).as("runs in flight at the kill are failed, not re-run").isPositive();
                    assertThat(audited).isEqualTo(orphaned);
                    assertThat(succeeded + orphaned).isEqualTo(EVENTS);
                    assertThat(count(c, "SELECT count(*) FROM agent_runs r JOIN audit_rows a ON a.session_id = r.handle "
                            + "AND a.op_id = 'svc.agent_runs.run' WHERE r.error_code = 'run_orphaned'"))
                            .as("no orphan ran to an end afterwards").isZero();
                    assertThat((long) model.requests().size()).as("each run asked the model once at most")
                            .isLessThanOrEqualTo(succeeded + orphaned);
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

    private static Connection db(ExternalPostgres pg) throws Exception {
        return DriverManager.getConnection(pg.jdbcUrl(), ExternalPostgres.USER, ExternalPostgres.PASSWORD);
    }

    private static long count(Connection c, String sql) throws Exception {
        try (ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String post(HttpClient http, String url, String token, Object body) throws IOException,
            InterruptedException {
        var r = http.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        JSON.writeValueAsString(body))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return r.body();
    }
}
