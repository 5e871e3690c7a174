package dev.backplane.image;

import static dev.backplane.image.Http.JSON;
import static dev.backplane.image.Http.awaitTrue;
import static dev.backplane.image.Http.expect;
import static dev.backplane.image.Http.freePort;
import static dev.backplane.image.Http.registerLoopbackTarget;
import static dev.backplane.image.Http.send;
import static dev.backplane.kernel.testing.ScriptedModel.text;
import static dev.backplane.kernel.testing.ScriptedModel.toolCall;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.backplane.image.Deployment.Replica;
import dev.backplane.kernel.testing.ExternalPostgres;
import dev.backplane.kernel.testing.Fixtures;
import dev.backplane.kernel.testing.LoopbackHttp;
import dev.backplane.kernel.testing.ScriptedModel;
import dev.backplane.kernel.testing.TestPlugins;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The image as a platform team runs it: two kernel containers ({@code --read-only}, non-root) on one external
 * PostgreSQL (Debian's server, started by the test), one Vault (the KV v2 double over a real socket), the suite's
 * real Keycloak, behind haproxy round-robin with readiness checks on the management port. First the replicas
 * share one state (log in, ingest, a dispatch, a write parked through one and approved through the other, a
 * webhook accepted by either, an agent run started on one and watched from the other); then steady traffic
 * through haproxy while one container gets SIGTERM (the Docker API's stop, through Testcontainers): no request fails, no audit row is left
 * {@code started}, and the agent run in flight on the stopped replica finishes on the other.
 */
@Testcontainers(disabledWithoutDocker = true) // podman's Docker API (PodmanEngine); CI fails on the skip
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReplicasBehindHaproxyIT {

    private static final String WEBHOOK_SECRET = "replica-webhook-secret-0123456789";

    private static Deployment deployment;
    private static ScriptedModel model;
    /** The target the fixture connector calls: a plain-HTTP server on loopback. */
    private static HttpServer target;
    private static final List<Replica> replicas = new ArrayList<>();
    private static String lb;
    private static String alice;
    private static String bob;

    @BeforeAll
    static void start() throws Exception {
        deployment = Deployment.start("replicas", "alice", "bob");
        model = ScriptedModel.concurrent();
        target = LoopbackHttp.start(x -> LoopbackHttp.itemsOr(x, "ok"));
        Path plugins = deployment.dir("plugins");
        TestPlugins.build(plugins, TestPlugins.connector("rep", "1.x").product("rep").ranges("*").httpProbe(false));
        Map<String, String> env = Map.of("SVC_AGENTS_MODEL_BASE_URL", model.baseUrl());
        for (int i = 1; i <= 2; i++) {
            replicas.add(deployment.startReplica(deployment.image(), deployment.pg(), plugins, env));
        }
        for (Replica r : replicas) {
            deployment.awaitReady(r);
        }
        lb = deployment.balance(replicas).url();
        alice = deployment.login("alice", lb);
        bob = deployment.login("bob", lb);
    }

    @AfterAll
    static void stop() throws Exception {
        if (target != null) {
            target.stop(0);
        }
        Fixtures.closeAll(model, deployment);
    }

    @Test
    @Order(0)
    void anExternalDatabaseWithTheLocalFileSecretStoreRefusesToStart() throws Exception {
        Map<String, String> env = new LinkedHashMap<>(deployment.pg().addTo(new HashMap<>()));
        env.put("SVC_SERVER_PORT", String.valueOf(freePort()));
        env.put("SVC_IDENTITY_ISSUER", deployment.issuer());
        KernelContainer.Exit refused = KernelContainer.runOnce(deployment.image(), env);
        assertThat(refused.code()).as(refused.log()).isEqualTo(2);
        assertThat(refused.log()).contains("configuration error").contains("SVC_VAULT_ADDR")
                .contains("SVC_CREDENTIALS_FILE_SINGLE_REPLICA").doesNotContain(ExternalPostgres.PASSWORD);
        // no database at all: the image has no embedded PostgreSQL, and says what to set
        KernelContainer.Exit noDatabase = KernelContainer.runOnce(deployment.image(), Map.of(
                "SVC_SERVER_PORT", String.valueOf(freePort()), "SVC_IDENTITY_ISSUER", deployment.issuer()));
        assertThat(noDatabase.code()).as(noDatabase.log()).isEqualTo(2);
        assertThat(noDatabase.log()).contains("configuration error").contains("SVC_DB_URL");
    }

    @Test
    @Order(1)
    void twoReplicasServeOneState() throws Exception {
        Replica one = replicas.get(0);
        Replica two = replicas.get(1);
        // ingest through the load balancer; both replicas serve the connector
        String spec = dev.backplane.kernel.catalog.SpecIngestIT.spec("Replicated", "1.0", 2);
        expect(200, send("POST", lb + "/api/v1/connectors/ingest", alice, Map.of("product", "ingested", "version", "1.x",
                "tenant_id", deployment.tenant().toString(), "specs", List.of(Map.of("name", "r.json", "content", spec)))));
        for (Replica r : replicas) {
            expect(200, send("GET", r.url() + "/api/v1/connectors/ingested-1.x", alice, null));
        }
        // a target and its secret (in Vault), a read dispatched through the load balancer
        registerLoopbackTarget(lb, alice, "edge-1", target.getAddress().getPort());
        expect(200, send("POST", lb + "/api/v1/connectors/rep-1.x/enable", alice, null));
        expect(200, send("PATCH", lb + "/api/v1/connectors/rep-1.x/operations/rep.item0.list", alice,
                Map.of("is_enabled", true)));
        HttpResponse<String> read = send("POST", lb + "/api/v1/operations/call", alice, Map.of("connector_id", "rep-1.x",
                "op_id", "rep.item0.list", "target", "edge-1", "params", Map.of("count", 3)));
        expect(200, read);
        assertThat(JSON.readTree(read.body()).path("status").asText()).as(read.body()).isEqualTo("ok");

        // a write parked through replica 1, approved by a second person through replica 2, run there
        expect(200, send("PATCH", one.url() + "/api/v1/connectors/rep-1.x/operations/rep.item2.delete", alice,
                Map.of("is_enabled", true, "safety_level", "caution")));
        HttpResponse<String> parked = send("POST", one.url() + "/api/v1/operations/call", alice, Map.of("connector_id",
                "rep-1.x", "op_id", "rep.item2.delete", "target", "edge-1", "params", Map.of("name", "x")));
        JsonNode parkedBody = JSON.readTree(parked.body());
        assertThat(parkedBody.path("status").asText()).as(parked.body()).isEqualTo("awaiting_approval");
        String approval = parkedBody.path("extras").path("approval_request_id").asText();
        HttpResponse<String> released = send("POST", two.url() + "/api/v1/approvals/" + approval + "/approve", bob,
                Map.of());
        expect(200, released);
        assertThat(JSON.readTree(released.body()).path("result").path("status").asText()).as(released.body())
                .isEqualTo("ok");

        // a webhook source created on one replica accepts deliveries on either
        String slug = JSON.readTree(expect(201, send("POST", lb + "/api/v1/event-sources", alice, Map.of("name", "alerts",
                "kind", "generic-json", "auth_strategy", "static-header", "secret", WEBHOOK_SECRET))).body())
                .path("slug").asText();
        for (Replica r : replicas) {
            HttpResponse<String> accepted = Http.send(HttpRequest.newBuilder(URI.create(r.url() + "/api/v1/events/ingest/"
                    + slug)).header("X-Svc-Token", WEBHOOK_SECRET).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"kind\": \"replica-test\", \"via\": \"" + r.name()
                            + "\"}")).build());
            assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(200);
        }

        // an agent run started on replica 1 (its first answer lists targets), watched from replica 2
        expect(201, send("POST", lb + "/api/v1/agent-principals", alice, Map.of("name", "replica-bot")));
        expect(201, send("POST", lb + "/api/v1/agents", alice, Map.of("name", "replica", "identity_ref", "replica-bot")));
        model.then(toolCall("list_targets", Map.of()), text("edge-1 is there"));
        HttpResponse<String> started = send("POST", one.url() + "/api/v1/agents/replica/runs", alice,
                Map.of("input", "which targets?", "async", true));
        expect(202, started);
        String handle = JSON.readTree(started.body()).path("handle").asText();
        JsonNode run = awaitRun(two, handle);
        assertThat(run.path("status").asText()).as(run.toString()).isEqualTo("succeeded");
        assertThat(run.path("output").path("text").asText()).isEqualTo("edge-1 is there");
    }

    @Test
    @Order(2)
    void sigtermDrainsOneReplicaWithoutFailingARequest() throws Exception {
        Replica stopping = replicas.get(0);
        Replica staying = replicas.get(1);
        // an agent run in flight on the replica that will stop: it waits for its second model answer
        expect(201, send("POST", lb + "/api/v1/agents", alice, Map.of("name", "drain", "identity_ref", "replica-bot")));
        int asked = model.requests().size();
        model.then(toolCall("list_targets", Map.of()));
        HttpResponse<String> started = send("POST", stopping.url() + "/api/v1/agents/drain/runs", alice,
                Map.of("input", "count the targets", "async", true));
        expect(202, started);
        String handle = JSON.readTree(started.body()).path("handle").asText();
        awaitTrue("the run waits for its second answer", () -> model.requests().size() >= asked + 2, 60);

        // steady traffic through the load balancer
        Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean traffic = new AtomicBoolean(true);
        Thread load = Thread.ofVirtual().start(() -> {
            while (traffic.get()) {
                try {
                    HttpResponse<String> r = send("GET", lb + "/api/v1/targets", alice, null);
                    statuses.merge(r.statusCode(), 1, Integer::sum);
                    if (r.statusCode() != 200) {
                        failures.add(r.statusCode() + " " + r.body());
                    }
                    Thread.sleep(10);
                } catch (IOException e) {
                    failures.add("transport: " + e);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        Thread.sleep(1000);
        long t0 = System.nanoTime();
        deployment.stop(stopping, 40); // SIGTERM, then waits for the exit
        long stoppedMs = Duration.ofNanos(System.nanoTime() - t0).toMillis();
        awaitTrue("the staying replica asks the cut-off turn again", () -> model.requests().size() >= asked + 3, 60);
        model.then(text("one target"), text("one target"));
        Thread.sleep(1000);
        traffic.set(false);
        load.join();

        int total = statuses.values().stream().mapToInt(Integer::intValue).sum();
        System.out.printf("ReplicasBehindHaproxyIT: SIGTERM to exit %d ms (delay 3 s, drain up to 20 s); %d requests "
                + "through haproxy meanwhile: %s%n", stoppedMs, total, statuses);
        assertThat(failures).as("no request failed while a replica drained").isEmpty();
        assertThat(total).isGreaterThan(50);
        assertThat(stoppedMs).as("stopped within delay + drain").isLessThan(25_000);

        JsonNode run = awaitRun(staying, handle);
        assertThat(run.path("status").asText()).as(run.toString()).isEqualTo("succeeded");
        List<String> kinds = JSON.readTree(send("GET", staying.url() + "/api/v1/agent-runs/" + handle + "/events", alice,
                null).body()).path("events").findValuesAsText("kind");
        assertThat(kinds).containsSubsequence("handed_off", "resumed", "final_output");
        try (Connection c = DriverManager.getConnection(deployment.pg().jdbcUrl(), ExternalPostgres.USER, ExternalPostgres.PASSWORD)) {
            assertThat(count(c, "SELECT count(*) FROM audit_rows WHERE result_status = 'started'"))
                    .as("no audit row left started").isZero();
        }
        String log = deployment.logs(stopping);
        assertThat(log).contains("handed off at turn 2").contains("drained in");
    }

    // --- helpers

    private static JsonNode awaitRun(Replica r, String handle) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (true) {
            JsonNode run = JSON.readTree(send("GET", r.url() + "/api/v1/agent-runs/" + handle, alice, null).body());
            if (List.of("succeeded", "failed", "cancelled").contains(run.path("status").asText())) {
                return run;
            }
            assertThat(System.nanoTime()).as("the run finishes: " + run).isLessThan(deadline);
            Thread.sleep(200);
        }
    }

    private static long count(Connection c, String sql) throws Exception {
        try (ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
