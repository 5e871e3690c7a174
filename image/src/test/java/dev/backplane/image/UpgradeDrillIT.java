package dev.backplane.image;

import static dev.backplane.image.Http.awaitTrue;
import static dev.backplane.image.Http.expect;
import static dev.backplane.image.Http.freePort;
import static dev.backplane.image.Http.json;
import static dev.backplane.image.Http.registerLoopbackTarget;
import static dev.backplane.image.Http.send;
import static dev.backplane.image.Http.status;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.persistence.Database;
import dev.backplane.kernel.testing.ExternalPostgres;
import dev.backplane.kernel.testing.LoopbackHttp;
import dev.backplane.kernel.testing.TestPlugins;
import dev.backplane.kernel.testing.VaultDouble;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The upgrade drill (issue 41): the previous release ({@link PreviousRelease}, two host JVMs that migrated a fresh
 * PostgreSQL to their own schema as that release did at start) serves behind haproxy with state in it; under steady
 * traffic through haproxy this build's image runs its {@code migrate} step against the live database, two replicas
 * of the image start beside the old ones ({@code SVC_DB_MIGRATE_ON_START=false}, as the chart runs them), and the old
 * ones leave one by one. No request fails; the state written by the old release is all there through the new one;
 * the old release works on the migrated schema until it stops, and starts again on it (the rollback).
 */
@Testcontainers(disabledWithoutDocker = true) // podman's Docker API (PodmanEngine); CI fails on the skip
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class UpgradeDrillIT {

    private static final String WEBHOOK_SECRET = "upgrade-webhook-secret-0123456789";
    private static final Map<String, Duration> timings = new LinkedHashMap<>();

    private static PreviousRelease previous;
    private static Deployment d;
    private static HttpServer target;
    private static Path plugins;
    private static final List<PreviousRelease.Kernel> oldKernels = new ArrayList<>();
    private static final List<Deployment.Replica> oldReplicas = new ArrayList<>();
    private static final List<Deployment.Replica> newReplicas = new ArrayList<>();
    private static Haproxy haproxy;
    private static String alice;
    private static String bob;
    /** This build's image, under the deployment's own tag (other sessions load and remove the shared one). */
    private static String image;
    /** What the old release wrote before the upgrade, checked through the new one after it. */
    private static String approvedId;
    private static String pendingId;
    private static String auditId;
    private static String slug;
    private static long auditRowsBefore;

    @BeforeAll
    static void start() throws Exception {
        long t0 = System.nanoTime();
        d = Deployment.start("upgrade", "alice", "bob"); // skips where podman or haproxy cannot run: before the build
        previous = PreviousRelease.build();
        timings.put("old release build (0 = cached)", previous.buildTime());
        image = d.image();
        target = LoopbackHttp.start(x -> LoopbackHttp.itemsOr(x, "ok"));
        plugins = d.dir("plugins");
        TestPlugins.build(plugins, TestPlugins.connector("rep", "1.x").product("rep").ranges("*").httpProbe(false));
        // the old release migrates a fresh database at start, as it did: both replicas at once (Flyway's lock)
        long t1 = System.nanoTime();
        for (int i = 1; i <= 2; i++) {
            startOld("svc-upgrade-old-" + i);
        }
        for (Deployment.Replica r : oldReplicas) {
            awaitTrue(r.name() + " ready (" + d.dir("old-logs") + ")", () -> status("GET", r.url() + "/health/ready",
                    null, null) == 200, 180);
        }
        timings.put("old replicas start (migrating a fresh schema)", since(t1));
        assertThat(schemaVersions()).as("the old release migrated to its own latest version")
                .endsWith(previous.schemaVersion());
        haproxy = d.balance(oldReplicas);
        alice = d.login("alice", d.lbUrl());
        bob = d.login("bob", d.lbUrl());
        timings.put("set-up", since(t0));
    }

    /** A kernel of the previous release on the host, on free ports, its health on its API port (it had no other). */
    private static void startOld(String name) throws Exception {
        int port = freePort();
        Map<String, String> env = new LinkedHashMap<>(d.pg().addTo(new HashMap<>()));
        env.put("SVC_SERVER_HOST", "127.0.0.1");
        env.put("SVC_SERVER_PORT", String.valueOf(port));
        env.put("SVC_DATA_DIR", d.dir(name).toString());
        env.put("SVC_IDENTITY_ISSUER", d.issuer());
        env.put("SVC_VAULT_ADDR", d.vault().address());
        env.put("SVC_VAULT_TOKEN", VaultDouble.ROOT_TOKEN);
        env.put("SVC_PLUGIN_DIR", plugins.toString());
        env.put("SVC_TARGET_SSRF_ALLOWLIST", "127.0.0.0/8");
        env.put("SVC_PUBLIC_URL", d.lbUrl());
        oldKernels.add(previous.start(name, env, d.dir("old-logs").resolve(name + ".log")));
        oldReplicas.add(new Deployment.Replica(name, port, port));
    }

    @AfterAll
    static void stop() throws Exception {
        for (PreviousRelease.Kernel k : oldKernels) {
            if (k.process().isAlive()) {
                k.process().destroyForcibly().waitFor();
            }
        }
        if (target != null) {
            target.stop(0);
        }
        try {
            // the old kernels' logs outlive the deployment's temp dir, for a look after a red run
            Path logs = Files.createDirectories(ImageIT.ROOT.resolve("image/target/upgrade-drill"));
            for (PreviousRelease.Kernel k : oldKernels) {
                Files.copy(k.log(), logs.resolve(k.name() + ".log"), StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            if (d != null) {
                d.close();
            }
        }
        timings.forEach((k, v) -> System.out.printf("UpgradeDrillIT: %-60s %6d ms%n", k, v.toMillis()));
    }

    @Test
    @Order(1)
    void upgradesUnderTrafficWithoutAFailedRequest() throws Exception {
        String lb = d.lbUrl();
        // state written by the old release: a target and its secret, a governed read, a write parked and approved by a
        // second person, another left waiting, a kb entry, a webhook source with an event
        registerLoopbackTarget(lb, alice, "edge-1", target.getAddress().getPort());
        expect(200, send("POST", lb + "/api/v1/connectors/rep-1.x/enable", alice, null));
        expect(200, send("PATCH", lb + "/api/v1/connectors/rep-1.x/operations/rep.item0.list", alice,
                Map.of("is_enabled", true)));
        expect(200, send("PATCH", lb + "/api/v1/connectors/rep-1.x/operations/rep.item2.delete", alice,
                Map.of("is_enabled", true, "safety_level", "caution")));
        JsonNode read = json(200, send("POST", lb + "/api/v1/operations/call", alice, readCall()));
        assertThat(read.path("status").asText()).as(read.toString()).isEqualTo("ok");
        auditId = read.path("extras").path("audit_id").asText();
        approvedId = park("x");
        JsonNode released = json(200, send("POST", lb + "/api/v1/approvals/" + approvedId + "/approve", bob, Map.of()));
        assertThat(released.path("result").path("status").asText()).as(released.toString()).isEqualTo("ok");
        pendingId = park("y");
        slug = "upgrade-runbook";
        expect(201, send("POST", lb + "/api/v1/kb", alice, Map.of("slug", slug, "body",
                "To upgrade the backplane run the migrate job first, then roll the replicas.")));
        String source = json(201, send("POST", lb + "/api/v1/event-sources", alice, Map.of("name", "alerts", "kind",
                "generic-json", "auth_strategy", "static-header", "secret", WEBHOOK_SECRET))).path("slug").asText();
        expect(200, webhook(oldReplicas.getFirst(), source, "before"));
        auditRowsBefore = count("SELECT count(*) FROM audit_rows");

        // steady traffic through haproxy: reads, and governed calls that are idempotent (a read op on the target)
        List<SteadyTraffic.Request> requests = List.of(
                new SteadyTraffic.Request("GET targets", "GET", "/api/v1/targets", null, r -> r.statusCode() == 200),
                new SteadyTraffic.Request("GET kb entry", "GET", "/api/v1/kb/" + slug, null,
                        r -> r.statusCode() == 200 && r.body().contains("migrate job")),
                new SteadyTraffic.Request("POST governed read", "POST", "/api/v1/operations/call", readCall(),
                        r -> r.statusCode() == 200 && r.body().contains("\"status\":\"ok\"")));
        try (SteadyTraffic traffic = SteadyTraffic.start(lb, alice, requests, 3, Duration.ofMillis(20))) {
            traffic.phase("old only");
            Thread.sleep(3000);

            // 1. the new image's migrate step, a one-shot container against the live database
            traffic.phase("migrate");
            long t0 = System.nanoTime();
            KernelContainer.Exit migrated = KernelContainer.runOnce(image, d.pg().addTo(new LinkedHashMap<>()), "migrate");
            timings.put("migrate (a one-shot container: <image> migrate)", since(t0));
            System.out.println("UpgradeDrillIT: " + migrated.log());
            assertThat(migrated.code()).as(migrated.log()).isZero();
            assertThat(migrated.log()).contains("schema version %03d -> %03d (%d migration(s) applied)".formatted(
                    previous.schemaVersion(), added().last(), added().size())).doesNotContain(ExternalPostgres.PASSWORD);

            // 2. the old release keeps working on the migrated schema: each old replica, directly, reads and writes
            traffic.phase("old on migrated schema");
            for (Deployment.Replica old : oldReplicas) {
                oldStillWorks(old, source);
            }

            // 3. two replicas of the new image beside the old ones, then in the load balancer
            traffic.phase("new replicas start");
            long t1 = System.nanoTime();
            for (int i = 0; i < 2; i++) {
                newReplicas.add(d.startReplica(image, d.pg(), plugins, Map.of("SVC_DB_MIGRATE_ON_START",
                        "false")));
            }
            for (Deployment.Replica r : newReplicas) {
                d.awaitReady(r);
            }
            timings.put("new replicas ready", since(t1));
            traffic.phase("old and new behind haproxy");
            long t2 = System.nanoTime();
            List<Deployment.Replica> serving = new ArrayList<>(oldReplicas);
            serving.addAll(newReplicas);
            haproxy.servers(serving);
            Thread.sleep(3000);
            // the old release reads what the new one writes (a webhook through the new replica: its shared bucket)
            expect(200, webhook(newReplicas.getFirst(), source, "new"));
            expect(200, webhook(oldReplicas.getFirst(), source, "old"));
            timings.put("old and new side by side", since(t2));
            for (Deployment.Replica r : newReplicas) {
                assertThat(d.logs(r)).as(r.name() + " served traffic beside the old release")
                        .contains("route=/api/v1/operations/call status=200");
            }

            // 4. the old replicas leave one by one
            for (int i = 0; i < oldKernels.size(); i++) {
                PreviousRelease.Kernel old = oldKernels.get(i);
                traffic.phase("stop " + old.name());
                // it still works on the migrated schema, beside the new release, up to its stop
                JsonNode last = json(200, send("POST", oldReplicas.get(i).url() + "/api/v1/operations/call", alice,
                        readCall()));
                assertThat(last.path("status").asText()).as(old.name() + ": " + last).isEqualTo("ok");
                long t3 = System.nanoTime();
                // out of the load balancer first (haproxy reloads; its old worker finishes what it sent there), then
                // SIGTERM: 0.2.0 has no drain (see aCallInFlightOnAnOldReplicaAtSigtermIsCutOffAndNeverReplayed)
                serving.remove(oldReplicas.get(i));
                haproxy.servers(serving);
                int exit = old.terminate(Duration.ofSeconds(30));
                timings.put("stop " + old.name() + " (out of haproxy, SIGTERM, exit " + exit + ")", since(t3));
                Thread.sleep(2000);
            }
            traffic.phase("new only");
            Thread.sleep(3000);
            traffic.close();

            System.out.println("UpgradeDrillIT: requests through haproxy per phase " + traffic.sent() + ", "
                    + traffic.total() + " in all, " + traffic.failures().size() + " failed");
            traffic.failures().forEach(f -> System.out.println("UpgradeDrillIT: failed " + f));
            assertThat(traffic.failures()).as("no request failed during the upgrade").isEmpty();
            assertThat(traffic.sent()).allSatisfy((phase, n) -> assertThat(n).as(phase).isPositive());
        }

        // the old release logged no error on the migrated schema, nor beside the new release
        for (PreviousRelease.Kernel old : oldKernels) {
            assertThat(old.output().lines().filter(l -> l.contains(" SEVERE ")).toList()).as(old.name()).isEmpty();
        }

        // the schema: the new migrations applied once each, by the migrate step, after the old release's
        List<Integer> versions = schemaVersions();
        assertThat(versions).doesNotHaveDuplicates();
        int old = previous.schemaVersion();
        assertThat(added()).as("this release adds migrations: the drill upgrades for real").isNotEmpty();
        assertThat(versions.stream().filter(v -> v > old)).containsExactlyElementsOf(added());
        assertThat(count("SELECT count(*) FROM flyway_schema_history WHERE NOT success")).isZero();

        // what the old release wrote is all there, through a new replica
        Deployment.Replica fresh = newReplicas.getFirst();
        JsonNode targets = json(200, send("GET", fresh.url() + "/api/v1/targets", alice, null));
        assertThat(targets.toString()).contains("edge-1");
        assertThat(json(200, send("GET", fresh.url() + "/api/v1/kb/" + slug, alice, null)).toString())
                .contains("migrate job first");
        assertThat(json(200, send("GET", fresh.url() + "/api/v1/approvals/" + approvedId, alice, null)).path("status")
                .asText()).isEqualTo("approved");
        assertThat(json(200, send("GET", fresh.url() + "/api/v1/audit/" + auditId, alice, null)).toString())
                .contains("rep.item0.list");
        JsonNode late = json(200, send("POST", fresh.url() + "/api/v1/approvals/" + pendingId + "/approve", bob, Map.of()));
        assertThat(late.path("result").path("status").asText()).as(late.toString()).isEqualTo("ok");
        assertThat(count("SELECT count(*) FROM audit_rows")).isGreaterThan(auditRowsBefore);
        assertThat(count("SELECT count(*) FROM audit_rows WHERE result_status = 'started'")).as("no audit row left "
                + "started").isZero();
    }

    @Test
    @Order(2)
    void theOldReleaseStartsAgainOnTheMigratedSchema() throws Exception {
        // the rollback: a kernel of the previous release, started fresh on the schema the new image migrated
        long t0 = System.nanoTime();
        startOld("svc-upgrade-rollback");
        Deployment.Replica back = oldReplicas.getLast();
        awaitTrue("the old release starts on the migrated schema (" + oldKernels.getLast().log() + ")",
                () -> status("GET", back.url() + "/health/ready", null, null) == 200, 180);
        timings.put("rollback: old release ready on the migrated schema", since(t0));
        assertThat(json(200, send("GET", back.url() + "/api/v1/kb/" + slug, alice, null)).toString())
                .contains("migrate job first");
        JsonNode read = json(200, send("POST", back.url() + "/api/v1/operations/call", alice, readCall()));
        assertThat(read.path("status").asText()).as(read.toString()).isEqualTo("ok");
        // what the new release wrote, the old one reads: the approval released through a new replica
        assertThat(json(200, send("GET", back.url() + "/api/v1/approvals/" + pendingId, alice, null)).path("status")
                .asText()).isEqualTo("approved");
        assertThat(schemaVersions()).as("starting the old release changed nothing").endsWith(added().last());
        assertThat(oldKernels.getLast().output()).contains("newer than the latest available migration");
    }

    /**
     * What the old release does with a call in flight when it gets SIGTERM, and what haproxy makes of it: 0.2.0 has
     * no drain, it exits within a second and closes the connection of a call still running without an answer. haproxy
     * ({@code retry-on conn-failure empty-response response-timeout} with {@code disable-l7-retry} for POST, as the
     * operator's guide configures it) passes the cut-off on to the client (no answer, or 502) and does not send the
     * POST again (without that line it sometimes replays it on another replica: the target sees the call twice). This is the one kind of failure an upgrade
     * from 0.2.0 can have, and why the drill takes an old replica out of the load balancer before it stops it. Uses
     * the 0.2.0 kernel the rollback test started.
     */
    @Test
    @Order(3)
    void aCallInFlightOnAnOldReplicaAtSigtermIsCutOffAndNeverReplayed() throws Exception {
        AtomicInteger hits = new AtomicInteger();
        HttpServer slow = LoopbackHttp.start(x -> {
            hits.incrementAndGet();
            try {
                Thread.sleep(4000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            LoopbackHttp.itemsOr(x, "ok");
        }, Executors.newVirtualThreadPerTaskExecutor());
        try {
            Deployment.Replica fresh = newReplicas.getFirst();
            registerLoopbackTarget(fresh.url(), alice, "slow", slow.getAddress().getPort());
            Deployment.Replica back = oldReplicas.getLast();
            PreviousRelease.Kernel old = oldKernels.getLast();
            haproxy.servers(List.of(back, fresh));
            Map<String, Object> call = Map.of("connector_id", "rep-1.x", "op_id", "rep.item0.list", "target", "slow",
                    "params", Map.of("count", 1));
            // three 4-second calls: two through haproxy at once (round robin: one on each replica), one straight to
            // the old replica
            Map<String, Object> outcomes = new ConcurrentHashMap<>();
            List<Thread> clients = new ArrayList<>();
            for (String via : List.of("lb-1", "lb-2", "old")) {
                String url = (via.equals("old") ? back.url() : d.lbUrl()) + "/api/v1/operations/call";
                clients.add(Thread.ofVirtual().start(() -> {
                    try {
                        outcomes.put(via, send("POST", url, alice, call));
                    } catch (Exception e) {
                        outcomes.put(via, e);
                    }
                }));
            }
            awaitTrue("three calls in flight at the target", () -> hits.get() >= 3, 30);
            Thread.sleep(500);
            long t0 = System.nanoTime();
            int exit = old.terminate(Duration.ofSeconds(30));
            Duration exited = since(t0);
            for (Thread t : clients) {
                t.join(Duration.ofSeconds(60));
            }
            System.out.printf("UpgradeDrillIT: 0.2.0 got SIGTERM with calls in flight: exit %d after %d ms; %s; "
                    + "target hits %d%n", exit, exited.toMillis(), outcomes, hits.get());
            assertThat(exited).as("0.2.0 does not wait for calls in flight").isLessThan(Duration.ofSeconds(3));
            // the call straight to the old replica: the connection closes, no answer
            assertThat(outcomes.get("old")).as("the call straight to the old replica").isInstanceOf(
                    IOException.class);
            // of the two through haproxy (round robin: one on each replica), the one on the new replica is answered;
            // the one the old replica dropped is never sent again: haproxy passes the cut-off on (the client gets no
            // answer) or answers 502 — both seen, run to run
            List<String> lb = List.of("lb-1", "lb-2");
            assertThat(lb.stream().filter(k -> outcomes.get(k) instanceof HttpResponse<?> r && r.statusCode() == 200)
                    .count()).as(outcomes.toString()).isEqualTo(1);
            assertThat(lb.stream().filter(k -> outcomes.get(k) instanceof IOException
                    || outcomes.get(k) instanceof HttpResponse<?> r && r.statusCode() == 502).count())
                    .as(outcomes.toString()).isEqualTo(1);
            Thread.sleep(1000);
            assertThat(hits.get()).as("each call reached the target once: the dropped POST was not replayed")
                    .isEqualTo(3);
            System.out.println("UpgradeDrillIT: audit rows of the calls to the slow target by status: " + rows(
                    "SELECT result_status || '=' || count(*) FROM audit_rows WHERE target = 'slow' GROUP BY result_status ORDER BY 1"));
        } finally {
            slow.stop(0);
        }
    }

    // --- helpers

    /** Each old replica, directly: a governed read, a kb write and read, a webhook, a new target. */
    private static void oldStillWorks(Deployment.Replica old, String source) throws Exception {
        JsonNode read = json(200, send("POST", old.url() + "/api/v1/operations/call", alice, readCall()));
        assertThat(read.path("status").asText()).as(old.name() + ": " + read).isEqualTo("ok");
        expect(201, send("POST", old.url() + "/api/v1/kb", alice, Map.of("slug", "written-by-" + old.name(), "body",
                "written by the old release on the migrated schema")));
        expect(200, send("GET", old.url() + "/api/v1/kb/written-by-" + old.name(), alice, null));
        expect(201, send("POST", old.url() + "/api/v1/targets", alice, Map.of("name", "t-" + old.name(), "product",
                "rep", "host", "127.0.0.1", "port", target.getAddress().getPort(), "extras", Map.of("scheme", "http"))));
        expect(200, webhook(old, source, "migrated"));
    }

    private static Map<String, Object> readCall() {
        return Map.of("connector_id", "rep-1.x", "op_id", "rep.item0.list", "target", "edge-1", "params",
                Map.of("count", 3));
    }

    /** A write parked for approval through the load balancer; returns the approval request's id. */
    private static String park(String name) throws Exception {
        JsonNode parked = json(200, send("POST", d.lbUrl() + "/api/v1/operations/call", alice, Map.of("connector_id",
                "rep-1.x", "op_id", "rep.item2.delete", "target", "edge-1", "params", Map.of("name", name))));
        assertThat(parked.path("status").asText()).as(parked.toString()).isEqualTo("awaiting_approval");
        return parked.path("extras").path("approval_request_id").asText();
    }

    private static HttpResponse<String> webhook(Deployment.Replica r, String source, String via) throws Exception {
        return Http.send(HttpRequest.newBuilder(URI.create(r.url() + "/api/v1/events/ingest/" + source))
                .header("X-Svc-Token", WEBHOOK_SECRET).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"kind\": \"upgrade-drill\", \"via\": \"" + via + "\"}"))
                .build());
    }

    /** The migrations this build's kernel has that the previous release's had not (V046..V049 for 0.2.0). */
    private static SortedSet<Integer> added() throws Exception {
        Path kernel = Path.of(Database.class.getProtectionDomain().getCodeSource()
                .getLocation().toURI());
        return PreviousRelease.migrations(kernel).tailSet(previous.schemaVersion() + 1);
    }

    private static List<Integer> schemaVersions() throws Exception {
        List<Integer> out = new ArrayList<>();
        try (Connection c = connect(); ResultSet rs = c.createStatement().executeQuery(
                "SELECT version FROM flyway_schema_history WHERE version IS NOT NULL ORDER BY installed_rank")) {
            while (rs.next()) {
                out.add(Integer.parseInt(rs.getString(1)));
            }
        }
        return out;
    }

    private static List<String> rows(String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = connect(); ResultSet rs = c.createStatement().executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private static long count(String sql) throws Exception {
        try (Connection c = connect(); ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static Connection connect() throws Exception {
        return DriverManager.getConnection(d.pg().jdbcUrl(), ExternalPostgres.USER, ExternalPostgres.PASSWORD);
    }

    private static Duration since(long t0) {
        return Duration.ofNanos(System.nanoTime() - t0);
    }
}
