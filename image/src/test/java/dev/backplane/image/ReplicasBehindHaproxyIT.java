package dev.backplane.image;

import static dev.backplane.kernel.testing.ScriptedModel.text;
import static dev.backplane.kernel.testing.ScriptedModel.toolCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.ExternalPostgres;
import dev.backplane.kernel.testing.KeycloakServer;
import dev.backplane.kernel.testing.ScriptedModel;
import dev.backplane.kernel.testing.TestPlugins;
import dev.backplane.kernel.testing.VaultDouble;
import java.io.IOException;
import java.net.ServerSocket;
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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The image as a platform team runs it: two kernel containers ({@code --read-only}, non-root) on one external
 * PostgreSQL (Debian's server, started by the test), one Vault (the KV v2 double over a real socket), the suite's
 * real Keycloak, behind haproxy round-robin with readiness checks on the management port. First the replicas
 * share one state (log in, ingest, a dispatch, a write parked through one and approved through the other, a
 * webhook accepted by either, an agent run started on one and watched from the other); then steady traffic
 * through haproxy while one container gets SIGTERM ({@code podman stop}): no request fails, no audit row is left
 * {@code started}, and the agent run in flight on the stopped replica finishes on the other.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReplicasBehindHaproxyIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern DEVICE_URL = Pattern.compile("(http://\\S+/device\\?user_code=\\S+)");
    private static final String REALM = "svc";
    private static final UUID TENANT = UUID.randomUUID();
    private static final String PASSWORD = "pw-" + UUID.randomUUID();
    private static final String WEBHOOK_SECRET = "replica-webhook-secret-0123456789";

    private static Path work;
    private static ExternalPostgres pg;
    private static KeycloakServer keycloak;
    private static VaultDouble vault;
    private static ScriptedModel model;
    /** The target the fixture connector calls: a plain-HTTP server on loopback. */
    private static com.sun.net.httpserver.HttpServer target;
    private static final List<Replica> replicas = new ArrayList<>();
    private static Process haproxy;
    private static Podman podman;
    private static String lb;
    private static String alice;
    private static String bob;
    private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** One kernel container: its name, API port and management port. */
    private record Replica(String name, int port, int management) {
        String url() {
            return "http://127.0.0.1:" + port;
        }
    }

    @BeforeAll
    static void start() throws Exception {
        podman = Podman.require();
        assumeTrue(Files.isRegularFile(ImageIT.ARCHIVE), "no image archive at " + ImageIT.ARCHIVE);
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/haproxy")), "haproxy is not installed (bin/test-deps.sh "
                + "installs it where it can)");
        podman.run(List.of("load", "-i", ImageIT.ARCHIVE.toString())).ok();
        work = Files.createTempDirectory("svc-replicas");
        pg = ExternalPostgres.start();
        if (System.getenv("SVC_REQUIRE_FULL_SUITE") != null) {
            assertThat(pg.systemServer()).as("CI runs this against Debian's PostgreSQL server").isTrue();
        }
        vault = new VaultDouble("secret");
        model = ScriptedModel.concurrent();
        target = dev.backplane.kernel.testing.LoopbackHttp.start(x -> dev.backplane.kernel.testing.LoopbackHttp.itemsOr(x,
                "ok"));
        keycloak = KeycloakServer.start(Files.createDirectories(work.resolve("keycloak")));
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        TestPlugins.build(plugins, TestPlugins.connector("rep", "1.x").product("rep").ranges("*").httpProbe(false));
        String image = ImageIT.IMAGE;
        int lbPort = freePort();
        lb = "http://127.0.0.1:" + lbPort;
        for (int i = 1; i <= 2; i++) {
            replicas.add(startReplica(image, "svc-replica-" + i + "-" + UUID.randomUUID().toString().substring(0, 8),
                    plugins));
        }
        for (Replica r : replicas) {
            awaitReady(r);
        }
        haproxy = startHaproxy(lbPort);
        // both servers pass their readiness checks (rise 2 at 500 ms), then the load balancer serves
        Thread.sleep(1500);
        awaitTrue("haproxy serves", () -> status("GET", lb + "/api/v1/info", null, null) == 200
                && status("GET", lb + "/api/v1/info", null, null) == 200, 30);

        CliRunner admin = new CliRunner(work.resolve("admin-config"))
                .env("KEYCLOAK_ADMIN_USER", KeycloakServer.ADMIN)
                .env("KEYCLOAK_ADMIN_PASSWORD", keycloak.adminPassword())
                .env("SVC_BOOTSTRAP_USER_PASSWORD", PASSWORD);
        for (String user : List.of("alice", "bob")) {
            CliRunner.Result r = admin.run("admin", "idp", "bootstrap-clients", "--keycloak-base-url", keycloak.url(),
                    "--realm", REALM, "--admin-user-username", user, "--tenant-id", TENANT.toString());
            assertThat(r.exitCode()).as(r.toString()).isZero();
        }
        assertThat(keycloak.admin("PUT", "/" + REALM, Map.of("oauth2DevicePollingInterval", 1)).statusCode())
                .isEqualTo(204);
        alice = login("alice");
        bob = login("bob");
    }

    private static Replica startReplica(String image, String name, Path plugins) throws Exception {
        int port = freePort();
        int management = freePort();
        Path data = Files.createDirectories(work.resolve(name));
        assertThat(new ProcessBuilder("chown", "10001:10001", data.toString()).start().waitFor()).isZero();
        Map<String, String> env = new java.util.LinkedHashMap<>(pg.addTo(new java.util.HashMap<>()));
        env.put("SVC_SERVER_HOST", "127.0.0.1");
        env.put("SVC_SERVER_PORT", String.valueOf(port));
        env.put("SVC_SERVER_MANAGEMENT_PORT", String.valueOf(management));
        env.put("SVC_SERVER_SHUTDOWN_DELAY_SECONDS", "3");
        env.put("SVC_SERVER_SHUTDOWN_DRAIN_SECONDS", "20");
        env.put("SVC_IDENTITY_ISSUER", keycloak.url() + "/realms/" + REALM);
        env.put("SVC_VAULT_ADDR", vault.address());
        env.put("SVC_VAULT_TOKEN", VaultDouble.ROOT_TOKEN);
        env.put("SVC_PLUGIN_DIR", "/plugins");
        env.put("SVC_TARGET_SSRF_ALLOWLIST", "127.0.0.0/8"); // the test's target is on loopback
        env.put("SVC_AGENTS_MODEL_BASE_URL", model.baseUrl());
        env.put("SVC_PUBLIC_URL", lb); // clients reach every replica through the load balancer
        List<String> args = new ArrayList<>(List.of("run", "-d", "--name", name, "--network=host", "--read-only",
                "-v", data + ":/var/lib/svc", "-v", plugins + ":/plugins:ro"));
        env.forEach((k, v) -> args.addAll(List.of("-e", k + "=" + v)));
        args.add(image);
        podman.run(args).ok();
        return new Replica(name, port, management);
    }

    private static void awaitReady(Replica r) throws Exception {
        long t0 = System.nanoTime();
        awaitTrue(r.name() + " ready (podman logs " + r.name() + ")", () -> status("GET", "http://127.0.0.1:"
                + r.management() + "/health/ready", null, null) == 200, 120);
        System.out.printf("ReplicasBehindHaproxyIT: %s ready in %d ms%n", r.name(),
                Duration.ofNanos(System.nanoTime() - t0).toMillis());
    }

    private static Process startHaproxy(int port) throws Exception {
        StringBuilder cfg = new StringBuilder("""
                global
                    log stdout format raw local0 info
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 60s
                    timeout server 60s
                    retries 3
                    option redispatch
                    retry-on conn-failure empty-response response-timeout
                frontend api
                    bind 127.0.0.1:%d
                    default_backend kernels
                backend kernels
                    balance roundrobin
                    option httpchk
                    http-check send meth GET uri /health/ready ver HTTP/1.1 hdr Host 127.0.0.1
                    http-check expect status 200
                """.formatted(port));
        for (Replica r : replicas) {
            cfg.append("    server ").append(r.name()).append(" 127.0.0.1:").append(r.port()).append(" check port ")
                    .append(r.management()).append(" inter 500 fall 1 rise 2\n");
        }
        Path file = work.resolve("haproxy.cfg");
        Files.writeString(file, cfg);
        return new ProcessBuilder("haproxy", "-f", file.toString(), "-db").redirectErrorStream(true)
                .redirectOutput(work.resolve("haproxy.log").toFile()).start();
    }

    /** {@code svc login} through the load balancer: the device flow, approved on Keycloak's own pages. */
    private static String login(String user) throws Exception {
        Path home = work.resolve("cli-" + user);
        CliRunner cli = new CliRunner(home);
        CliRunner.Running running = cli.start("login", lb, "--insecure-allow-http");
        String url;
        try {
            url = running.awaitErr(DEVICE_URL, Duration.ofSeconds(30));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\n" + running.err(), e);
        }
        keycloak.approveDevice(url, user, PASSWORD);
        CliRunner.Result done = running.result().get(60, TimeUnit.SECONDS);
        assertThat(done.exitCode()).as(done.toString()).isZero();
        return JSON.readTree(home.resolve("svc/tokens.json").toFile()).findValue("access_token").asText();
    }

    @AfterAll
    static void stop() throws Exception {
        if (haproxy != null) {
            haproxy.destroy();
            haproxy.waitFor(10, TimeUnit.SECONDS);
            List<String> log = Files.readAllLines(work.resolve("haproxy.log"));
            log.subList(Math.max(0, log.size() - 15), log.size()).forEach(l -> System.out.println("haproxy| " + l));
        }
        for (Replica r : replicas) {
            podman.run(List.of("rm", "-f", "-t", "0", r.name()));
        }
        if (podman != null) {
            podman.run(List.of("rmi", "-f", ImageIT.IMAGE));
        }
        if (target != null) {
            target.stop(0);
        }
        dev.backplane.kernel.testing.Fixtures.closeAll(keycloak, model, vault, pg);
        if (work != null) {
            try (java.util.stream.Stream<Path> files = Files.walk(work)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    @Test
    @Order(0)
    void anExternalDatabaseWithTheLocalFileSecretStoreRefusesToStart() throws Exception {
        Map<String, String> env = new java.util.LinkedHashMap<>(pg.addTo(new java.util.HashMap<>()));
        env.put("SVC_SERVER_PORT", String.valueOf(freePort()));
        env.put("SVC_IDENTITY_ISSUER", keycloak.url() + "/realms/" + REALM);
        List<String> args = new ArrayList<>(List.of("run", "--rm", "--network=host", "--read-only"));
        env.forEach((k, v) -> args.addAll(List.of("-e", k + "=" + v)));
        args.add(ImageIT.IMAGE);
        Podman.Run refused = podman.run(args);
        assertThat(refused.exit()).as(refused.out()).isEqualTo(2);
        assertThat(refused.out()).contains("configuration error").contains("SVC_VAULT_ADDR")
                .contains("SVC_CREDENTIALS_FILE_SINGLE_REPLICA").doesNotContain(ExternalPostgres.PASSWORD);
        // no database at all: the image has no embedded PostgreSQL, and says what to set
        Podman.Run noDatabase = podman.run(List.of("run", "--rm", "--network=host", "--read-only", "-e",
                "SVC_SERVER_PORT=" + freePort(), "-e", "SVC_IDENTITY_ISSUER=" + keycloak.url() + "/realms/" + REALM,
                ImageIT.IMAGE));
        assertThat(noDatabase.exit()).as(noDatabase.out()).isEqualTo(2);
        assertThat(noDatabase.out()).contains("configuration error").contains("SVC_DB_URL");
    }

    @Test
    @Order(1)
    void twoReplicasServeOneState() throws Exception {
        Replica one = replicas.get(0);
        Replica two = replicas.get(1);
        // ingest through the load balancer; both replicas serve the connector
        String spec = dev.backplane.kernel.catalog.SpecIngestIT.spec("Replicated", "1.0", 2);
        expect(200, send("POST", lb + "/api/v1/connectors/ingest", alice, Map.of("product", "ingested", "version", "1.x",
                "tenant_id", TENANT.toString(), "specs", List.of(Map.of("name", "r.json", "content", spec)))));
        for (Replica r : replicas) {
            expect(200, send("GET", r.url() + "/api/v1/connectors/ingested-1.x", alice, null));
        }
        // a target and its secret (in Vault), a read dispatched through the load balancer
        expect(201, send("POST", lb + "/api/v1/targets", alice, Map.of("name", "edge-1", "product", "rep",
                "host", "127.0.0.1", "port", target.getAddress().getPort(), "extras", Map.of("scheme", "http"))));
        expect(200, send("PUT", lb + "/api/v1/targets/edge-1/secret", alice, Map.of("fields", Map.of("username", "u",
                "password", "p-123456"))));
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
            HttpResponse<String> accepted = http.send(HttpRequest.newBuilder(URI.create(r.url() + "/api/v1/events/ingest/"
                    + slug)).header("X-Svc-Token", WEBHOOK_SECRET).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"kind\": \"replica-test\", \"via\": \"" + r.name()
                            + "\"}")).build(), HttpResponse.BodyHandlers.ofString());
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
        podman.run(List.of("stop", "-t", "40", stopping.name())).ok(); // SIGTERM, then waits for the exit
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
        try (Connection c = DriverManager.getConnection(pg.jdbcUrl(), ExternalPostgres.USER, ExternalPostgres.PASSWORD)) {
            assertThat(count(c, "SELECT count(*) FROM audit_rows WHERE result_status = 'started'"))
                    .as("no audit row left started").isZero();
        }
        String log = podman.run(List.of("logs", stopping.name())).ok().out();
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

    private interface Check {
        boolean ok() throws Exception;
    }

    private static void awaitTrue(String what, Check check, int seconds) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        while (!check.ok()) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    private static int status(String method, String url, String token, Object body) {
        try {
            return send(method, url, token, body).statusCode();
        } catch (IOException | InterruptedException e) {
            return -1;
        }
    }

    private static HttpResponse<String> expect(int status, HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.uri() + ": " + r.body()).isEqualTo(status);
        return r;
    }

    private static HttpResponse<String> send(String method, String url, String token, Object body)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").method(method, body == null
                        ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        Optional.ofNullable(token).ifPresent(t -> b.header("Authorization", "Bearer " + t));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static long count(Connection c, String sql) throws Exception {
        try (ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
