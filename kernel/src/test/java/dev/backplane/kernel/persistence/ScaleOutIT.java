package dev.backplane.kernel.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.testing.Replicas;
import dev.backplane.kernel.testing.ScriptedModel;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two kernels on one database, as replicas behind a load balancer: what one caches, a write on the
 * other invalidates (PostgreSQL LISTEN/NOTIFY), and the agent kill switch holds on every replica from
 * the very next call.
 */
class ScaleOutIT {

    @Test
    void writesOnOneReplicaAreSeenByTheOther(@TempDir Path work) throws Exception {
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        TestPlugins.build(plugins, TestPlugins.connector("so", "1.x").product("so").ranges("*").httpProbe(false));
        try (Replicas replicas = Replicas.start(work, Map.of())) {
            TestKernel a = replicas.a();
            TestKernel b = replicas.b();
            String admin = replicas.admin();
            UUID tenant = replicas.tenant();

            // a lookup that misses is cached on b, then a creates the target
            assertThat(b.get("/api/v1/targets/edge-1", admin).status()).isEqualTo(404);
            assertThat(a.send("POST", "/api/v1/targets", admin, "{\"name\": \"edge-1\", \"product\": \"so\", "
                    + "\"host\": \"127.0.0.1\", \"port\": 9}", Map.of()).status()).isEqualTo(201);
            awaitTrue("b sees the new target", () -> b.get("/api/v1/targets/edge-1", admin).status() == 200);
            a.send("PATCH", "/api/v1/targets/edge-1", admin, "{\"notes\": \"moved\"}", Map.of());
            awaitTrue("b sees the patch", () -> b.get("/api/v1/targets/edge-1", admin).json().path("notes").asText()
                    .equals("moved"));

            // review state: cached on b, changed on a
            assertThat(b.get("/api/v1/connectors/so-1.x", admin).json().path("connector").path("status").asText()).isEqualTo("staged");
            assertThat(a.send("POST", "/api/v1/connectors/so-1.x/enable", admin, null, Map.of()).status())
                    .isEqualTo(200);
            awaitTrue("b sees the connector enabled", () -> b.get("/api/v1/connectors/so-1.x", admin).json()
                    .path("connector").path("status").asText().equals("enabled"));

            // a call parked on a is approved on b and runs there, through b's pipeline
            assertThat(a.send("PUT", "/api/v1/targets/edge-1/secret", admin, "{\"fields\": {\"username\": \"u\", "
                    + "\"password\": \"p-123456\"}}", Map.of()).status()).isEqualTo(200);
            assertThat(a.send("PATCH", "/api/v1/connectors/so-1.x/operations/so.item2.delete", admin,
                    "{\"is_enabled\": true, \"safety_level\": \"caution\"}", Map.of()).status()).isEqualTo(200);
            var parked = a.send("POST", "/api/v1/operations/call", admin, "{\"connector_id\": \"so-1.x\", "
                    + "\"op_id\": \"so.item2.delete\", \"target\": \"edge-1\", \"params\": {\"name\": \"x\"}}", Map.of());
            assertThat(parked.json().path("status").asText()).as(parked.body()).isEqualTo("awaiting_approval");
            String approval = parked.json().path("extras").path("approval_request_id").asText();
            var released = b.send("POST", "/api/v1/approvals/" + approval + "/approve",
                    replicas.issuer().token("admin-2", tenant, "tenant_admin"), "{}", Map.of());
            assertThat(released.status()).as(released.body()).isEqualTo(200);
            assertThat(released.json().path("approval").path("status").asText()).isEqualTo("approved");
            assertThat(released.json().path("result").path("extras").path("audit_id").asText())
                    .as("executed on b, audited").isNotEmpty();
            assertThat(a.get("/api/v1/approvals/" + approval, admin).json().path("decided_by").asText())
                    .isEqualTo("admin-2");

            // the kill switch: pulled on a, effective on b at the next call, no waiting
            String name = "bot-" + tenant;
            assertThat(a.send("POST", "/api/v1/agent-principals", admin, "{\"name\": \"" + name + "\"}", Map.of())
                    .status()).isEqualTo(201);
            String agent = replicas.issuer().token(c -> c.subject("bot-sub").claim("azp", name)
                    .claim("tenant_id", tenant.toString()).claim("tenant_role", "operator"));
            awaitTrue("b knows the agent", () -> b.get("/api/v1/whoami", agent).json().path("principal_kind")
                    .asText().equals("agent"));
            assertThat(a.send("POST", "/api/v1/agent-principals/" + name + "/revoke", admin, null, Map.of())
                    .status()).isEqualTo(200);
            var killed = b.get("/api/v1/whoami", agent);
            assertThat(killed.status()).isEqualTo(403);
            assertThat(killed.json().path("error").asText()).isEqualTo("principal_revoked");

            // a connector ingested on a is served by b at once (b re-reads it on a miss before the
            // notification arrives) and re-ingesting it on a replaces it on b
            String spec = dev.backplane.kernel.catalog.SpecIngestIT.spec("Replicated", "1.0", 2);
            String ingest = new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(Map.of(
                    "product", "rep", "version", "1.x", "tenant_id", tenant.toString(), "specs",
                            java.util.List.of(Map.of("name", "r.json", "content", spec))));
            assertThat(a.send("POST", "/api/v1/connectors/ingest", admin, ingest, Map.of()).status()).isEqualTo(200);
            assertThat(b.get("/api/v1/connectors/rep-1.x", admin).status()).isEqualTo(200);
            String spec3 = dev.backplane.kernel.catalog.SpecIngestIT.spec("Replicated", "1.1", 3);
            assertThat(a.send("POST", "/api/v1/connectors/ingest", admin, new com.fasterxml.jackson.databind
                    .ObjectMapper().writeValueAsString(Map.of("product", "rep", "version", "1.x", "tenant_id",
                            tenant.toString(), "specs",
                            java.util.List.of(Map.of("name", "r.json", "content", spec3)))), Map.of()).status())
                    .isEqualTo(200);
            awaitTrue("b serves the re-ingested catalog", () -> b.get("/api/v1/connectors/rep-1.x", admin).json()
                    .path("operations").size() == 9);
        }
    }

    /**
     * Security review D20: a change whose notification never reaches the other replica (here: written
     * straight to the database, so nothing is notified) is still seen there within the feed's
     * max-stale bound, for the connector review state, a target and an event source.
     */
    @Test
    void aLostNotificationIsBoundedByTheCachesLifetime(@TempDir Path work) throws Exception {
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        TestPlugins.build(plugins, TestPlugins.connector("st", "1.x").product("st").ranges("*").httpProbe(false));
        try (Replicas replicas = Replicas.start(work, Map.of("SVC_CACHE_MAX_STALE_SECONDS", "2"))) {
            TestKernel a = replicas.a();
            TestKernel b = replicas.b();
            String admin = replicas.admin();
            UUID tenant = replicas.tenant();
            Jdbc jdbc = new Jdbc(a.kernel().database().dataSource());
            assertThat(a.send("POST", "/api/v1/connectors/st-1.x/enable", admin, null, Map.of()).status()).isEqualTo(200);
            assertThat(a.send("POST", "/api/v1/targets", admin, "{\"name\": \"st-1\", \"product\": \"st\", "
                    + "\"host\": \"127.0.0.1\", \"port\": 9}", Map.of()).status()).isEqualTo(201);
            var source = a.send("POST", "/api/v1/event-sources", admin, "{\"name\": \"st\", \"kind\": "
                    + "\"generic-json\", \"auth_strategy\": \"static-header\", \"secret\": "
                    + "\"stale-cache-secret-0123\"}", Map.of());
            assertThat(source.status()).as(source.body()).isEqualTo(201);
            String slug = source.json().path("slug").asText();
            // b caches all three
            awaitTrue("b sees them", () -> b.get("/api/v1/connectors/so-1.x".replace("so", "st"), admin).json()
                    .path("connector").path("status").asText().equals("enabled")
                    && b.get("/api/v1/targets/st-1", admin).status() == 200
                    && ingest(b, slug) == 200);
            // changes nobody announces
            jdbc.update("UPDATE catalog_connector_reviews SET status = 'disabled' WHERE tenant_id = ? AND connector_id = "
                    + "'st-1.x'", tenant);
            jdbc.update("UPDATE targets_targets SET notes = 'changed behind the caches' WHERE tenant_id = ? AND name = 'st-1'",
                    tenant);
            jdbc.update("UPDATE event_sources SET status = 'paused' WHERE slug = ?", slug);
            long t0 = System.nanoTime();
            awaitTrue("b drops its stale entries within the bound", Duration.ofSeconds(5), () ->
                    b.get("/api/v1/connectors/st-1.x", admin).json().path("connector").path("status").asText()
                            .equals("disabled")
                    && b.get("/api/v1/targets/st-1", admin).json().path("notes").asText().equals("changed behind the caches")
                    && ingest(b, slug) == 404);
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(4));
        }
    }

    /** Cron triggers across replicas: both fire due triggers, yet each scheduled time starts one run. */
    @Test
    void twoReplicasFiringCronTriggersStartOneRunPerScheduledTime(@TempDir Path work) throws Exception {
        try (ScriptedModel model = new ScriptedModel();
             Replicas replicas = Replicas.start(work, Map.of("SVC_AGENTS_MODEL_BASE_URL", model.baseUrl(),
                     "SVC_SCHEDULER_CRON_MIN_INTERVAL_SECONDS", "1"))) {
            TestKernel a = replicas.a();
            TestKernel b = replicas.b();
            String admin = replicas.admin();
            UUID tenant = replicas.tenant();
            model.otherwise(ScriptedModel.text("ok"));
            assertThat(a.post("/api/v1/agent-principals", admin, Map.of("name", "cron-bot")).status()).isEqualTo(201);
            assertThat(a.post("/api/v1/agents", admin, Map.of("name", "ticker", "identity_ref", "cron-bot")).status())
                    .isEqualTo(201);
            List<String> ids = new java.util.ArrayList<>();
            for (int i = 0; i < 5; i++) {
                var t = (i % 2 == 0 ? a : b).post("/api/v1/scheduler/triggers", admin, Map.of("kind", "cron",
                        "agent_definition", "ticker", "cron", "* * * * * *", "inputs", "tick " + i));
                assertThat(t.status()).as(t.body()).isEqualTo(201);
                ids.add(t.json().path("id").asText());
            }
            var jdbc = a.jdbc();
            awaitTrue("every trigger fired several times", Duration.ofSeconds(40), () -> ids.stream().allMatch(id ->
                    jdbc.queryOne("SELECT count(*) FROM scheduler_trigger_fires WHERE trigger_id = ?::uuid",
                            rs -> rs.getLong(1), id).orElseThrow() >= 3));
            for (String id : ids) {
                a.post("/api/v1/scheduler/triggers/" + id + "/pause", admin, null);
            }
            Thread.sleep(1500);
            long fires = jdbc.queryOne("SELECT count(*) FROM scheduler_trigger_fires f JOIN scheduler_triggers t ON "
                    + "t.id = f.trigger_id WHERE t.tenant_id = ?", rs -> rs.getLong(1), tenant).orElseThrow();
            long distinct = jdbc.queryOne("SELECT count(DISTINCT (f.trigger_id, f.scheduled_for)) FROM "
                    + "scheduler_trigger_fires f JOIN scheduler_triggers t ON t.id = f.trigger_id WHERE t.tenant_id = ?",
                    rs -> rs.getLong(1), tenant).orElseThrow();
            long runs = jdbc.queryOne("SELECT count(*) FROM agent_runs WHERE tenant_id = ? AND trigger_id IS NOT NULL",
                    rs -> rs.getLong(1), tenant).orElseThrow();
            assertThat(distinct).as("no scheduled time fired twice").isEqualTo(fires);
            assertThat(runs).as("one run per firing").isEqualTo(fires);
        }
    }

    /** The topology graph across replicas: b's in-memory graph follows a's writes through the change feed. */
    @Test
    void aTopologyGraphOnOneReplicaFollowsWritesOnTheOther(@TempDir Path work) throws Exception {
        try (Replicas replicas = Replicas.start(work, Map.of())) {
            TestKernel a = replicas.a();
            TestKernel b = replicas.b();
            String admin = replicas.admin();
            String deps = "/api/v1/topology/dependencies?node=api";
            assertThat(a.post("/api/v1/topology/edges", admin, Map.of("from", "api", "from_kind", "service", "kind",
                    "depends-on", "to", "db", "to_kind", "datastore")).status()).isEqualTo(201);
            assertThat(b.get(deps, admin).json().path("nodes")).hasSize(1); // b loads its graph now
            assertThat(a.post("/api/v1/topology/edges", admin, Map.of("from", "db", "from_kind", "datastore", "kind",
                    "runs-on", "to", "vm-1", "to_kind", "vm")).status()).isEqualTo(201);
            awaitTrue("b's graph has a's new edge", () -> b.get(deps, admin).json().path("nodes").size() == 2);
            assertThat(a.post("/api/v1/topology/edges/unannotate", admin, Map.of("from", "api", "kind", "depends-on",
                    "to", "db")).status()).isEqualTo(200);
            awaitTrue("b's graph lost a's removed edge", () -> b.get(deps, admin).json().path("nodes").isEmpty());
            assertThat(b.get("/api/v1/topology/path?from=db&to=vm-1", admin).json().path("found").asBoolean()).isTrue();
        }
    }

    /** The broadcast feed across replicas: a watcher on b sees, live, what happens on a. */
    @Test
    void aBroadcastWatcherOnOneReplicaSeesActivityOnTheOther(@TempDir Path work) throws Exception {
        try (Replicas replicas = Replicas.start(work, Map.of())) {
            TestKernel a = replicas.a();
            TestKernel b = replicas.b();
            String admin = replicas.admin();
            java.util.concurrent.BlockingQueue<String> lines = new java.util.concurrent.LinkedBlockingQueue<>();
            java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
            Thread reader = Thread.ofVirtual().start(() -> {
                try {
                    http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(b.url()
                                    + "/api/v1/broadcast/stream")).header("Authorization", "Bearer " + admin).build(),
                            java.net.http.HttpResponse.BodyHandlers.ofLines()).body().forEach(lines::add);
                } catch (Exception e) {
                    lines.add("closed: " + e);
                }
            });
            try {
                awaitTrue("b's stream is open", () -> lines.stream().anyMatch(l -> l.startsWith(": streaming")));
                assertThat(a.post("/api/v1/broadcast/announcements", admin, Map.of("activity", "failing over db-1",
                        "planned_op_class", "write")).status()).isEqualTo(201);
                String slug = a.post("/api/v1/event-sources", admin, Map.of("name", "bc-rep", "kind", "generic-json",
                        "auth_strategy", "static-header", "secret", "replica-secret-0123456789")).json().path("slug")
                        .asText();
                assertThat(a.send("POST", "/api/v1/events/ingest/" + slug, null, "{\"kind\": \"tick\"}",
                        Map.of("X-Svc-Token", "replica-secret-0123456789")).status()).isEqualTo(200);
                awaitTrue("b streams a's announcement and a's ingest", () -> lines.stream().anyMatch(l ->
                        l.startsWith("data: ") && l.contains("failing over db-1")) && lines.stream().anyMatch(l ->
                        l.startsWith("data: ") && l.contains("\"kind\":\"ingest\"")));
                assertThat(b.get("/api/v1/broadcast/recent", admin).json().path("events")).hasSize(2);
            } finally {
                reader.interrupt();
            }
        }
    }

    @Test
    void twoReplicasDrainingTheSameEventsFireOneRunPerTriggerAndEvent(@TempDir Path work) throws Exception {
        int events = 30;
        try (ScriptedModel model = new ScriptedModel();
             Replicas replicas = Replicas.start(work, Map.of("SVC_AGENTS_MODEL_BASE_URL", model.baseUrl()))) {
            TestKernel a = replicas.a();
            TestKernel b = replicas.b();
            String admin = replicas.admin();
            UUID tenant = replicas.tenant();
            for (int i = 0; i < events * 2; i++) {
                model.then(ScriptedModel.text("ok"));
            }
            assertThat(a.post("/api/v1/agent-principals", admin, Map.of("name", "replica-bot")).status()).isEqualTo(201);
            assertThat(a.post("/api/v1/agents", admin, Map.of("name", "replica", "identity_ref", "replica-bot"))
                    .status()).isEqualTo(201);
            for (Object filter : List.of(Map.of(), Map.of("kind", "tick"))) {
                assertThat(b.post("/api/v1/scheduler/triggers", admin, Map.of("kind", "event", "agent_definition",
                        "replica", "event_filter", filter)).status()).isEqualTo(201);
            }
            String slug = a.post("/api/v1/event-sources", admin, Map.of("name", "replicated", "kind", "generic-json",
                    "auth_strategy", "static-header", "secret", "replica-secret-0123456789")).json().path("slug").asText();
            for (int i = 0; i < events; i++) {
                // each event delivered to both replicas, as a retrying sender behind a load balancer would
                String body = "{\"kind\": \"tick\", \"n\": " + i + "}";
                for (TestKernel k : List.of(a, b)) {
                    assertThat(k.send("POST", "/api/v1/events/ingest/" + slug, null, body,
                            Map.of("X-Svc-Token", "replica-secret-0123456789")).status()).isEqualTo(200);
                }
            }
            var jdbc = a.jdbc();
            awaitTrue("every run finished", Duration.ofSeconds(60), () -> jdbc.queryOne("SELECT count(*) FROM "
                    + "agent_runs WHERE tenant_id = ? AND status = 'succeeded'", rs -> rs.getLong(1), tenant)
                    .orElseThrow() == events * 2L);
            Thread.sleep(1000);
            assertThat(jdbc.queryOne("SELECT count(*) FROM agent_runs WHERE tenant_id = ?", rs -> rs.getLong(1), tenant)
                    .orElseThrow()).as("one run per (trigger, event), not per replica").isEqualTo(events * 2L);
            assertThat(jdbc.queryOne("SELECT count(DISTINCT lease_owner IS NULL) FROM agent_runs WHERE tenant_id = ?",
                    rs -> rs.getLong(1), tenant).orElseThrow()).isEqualTo(1);
        }
    }

    private static int ingest(TestKernel k, String slug) {
        return k.send("POST", "/api/v1/events/ingest/" + slug, null, "{\"n\":" + System.nanoTime() + "}",
                Map.of("X-Svc-Token", "stale-cache-secret-0123")).status();
    }

    private static void awaitTrue(String what, Duration limit, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(50);
        }
    }

    private static void awaitTrue(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(20);
        }
    }
}
