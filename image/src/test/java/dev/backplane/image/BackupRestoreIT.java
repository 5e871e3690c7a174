package dev.backplane.image;

import static dev.backplane.image.Http.JSON;
import static dev.backplane.image.Http.expect;
import static dev.backplane.image.Http.json;
import static dev.backplane.image.Http.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.backplane.image.Deployment.Replica;
import dev.backplane.kernel.testing.ExternalPostgres;
import dev.backplane.kernel.testing.Fixtures;
import dev.backplane.kernel.testing.LoopbackHttp;
import dev.backplane.kernel.testing.TestPlugins;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * Backup and restore of a deployment's database, as an operator does it: a kernel container filled through the REST
 * API (targets whose secrets are in Vault, kb, memory, approvals decided by a second person and pending, audited
 * calls, an event source and its events, topology), {@code pg_dump --format=custom} of the live database while
 * webhooks and reads keep arriving through haproxy, {@code pg_restore} into a fresh cluster, and a kernel container on
 * the restored database with the same settings and the same Vault: every record is there, kb and memory are found by
 * meaning, the audit log and the event log are a consistent snapshot, and no secret is in the dump.
 */
@Testcontainers(disabledWithoutDocker = true) // podman's Docker API (PodmanEngine); CI fails on the skip
class BackupRestoreIT {

    private static final String WEBHOOK_SECRET = "backup-webhook-secret-0123456789";
    /** The target passwords put in Vault; none may appear in the dump. */
    private static final List<String> SECRETS = List.of("vault-only-" + java.util.UUID.randomUUID(),
            "vault-only-" + java.util.UUID.randomUUID());
    /** kb entries and the paraphrase (no word of the body in common) that must find each by meaning. */
    private static final Map<String, String[]> KB = new LinkedHashMap<>(Map.of(
            "pg-failover", new String[] {"""
                    # PostgreSQL failover
                    When the primary database server crashes, promote the standby with pg_ctl promote, then point the
                    application's connection string at the promoted instance and rebuild a new standby from it.""",
                    "our main SQL machine died, what now"},
            "cert-renewal", new String[] {"""
                    # TLS certificate renewal
                    Certificates expire after ninety days. Renew them with the ACME client on the edge proxies and
                    reload nginx; an expired certificate makes browsers refuse every page of the shop.""",
                    "website shows a security warning because https credentials lapsed"}));

    private static Deployment deployment;
    private static HttpServer target;
    private static Path plugins;
    private static Replica replica;
    private static Haproxy lb;
    private static String alice;
    private static String bob;

    @BeforeAll
    static void start() throws Exception {
        deployment = Deployment.start("backup", "alice", "bob");
        assumeTrue(deployment.pg().systemServer(), "pg_dump and pg_restore come with Debian's PostgreSQL server");
        target = LoopbackHttp.start(x -> LoopbackHttp.itemsOr(x, "ok"));
        plugins = deployment.dir("plugins");
        TestPlugins.build(plugins, TestPlugins.connector("bak", "1.x").product("bak").ranges("*").httpProbe(false));
        replica = deployment.replica(deployment.pg(), plugins, Map.of());
        lb = deployment.balance(List.of(replica));
        alice = deployment.login("alice", lb.url());
        bob = deployment.login("bob", lb.url());
    }

    @AfterAll
    static void stop() throws Exception {
        if (target != null) {
            target.stop(0);
        }
        Fixtures.closeAll(deployment);
    }

    /** What the drill created, to find again after the restore. */
    private record Filled(List<String> targets, String pendingApproval, String decidedApproval, String bobSub,
                          String slug, Set<String> auditIds, Set<String> eventIds) {
    }

    @Test
    void aDumpOfTheLiveDatabaseRestoresEverythingIntoAFreshCluster() throws Exception {
        Filled filled = fill();
        Path dump = deployment.dir("dump").resolve("svc.dump");
        PgClient source = new PgClient(deployment.pg());

        // pg_dump while the replica runs and keeps writing (webhooks: an event and its audit row per delivery)
        Traffic traffic = Traffic.start(filled.slug());
        Thread.sleep(500);
        long t0 = System.nanoTime();
        PgClient.run(source.command("pg_dump", "--format=custom", "--file=" + dump, "svc"));
        long dumpMs = millisSince(t0);
        Thread.sleep(500);
        traffic.stop();
        deployment.stop(replica, 30);

        // the dump holds no secret: they live only in Vault (its text, as pg_restore would replay it)
        String script = PgClient.run(List.of(source.program("pg_restore"), "--file=-", dump.toString()));
        assertThat(script).as("the dump's script holds the kb (the check can fail)").contains("promote the standby");
        for (String secret : SECRETS) {
            assertThat(script).doesNotContain(secret);
        }
        assertThat(script).doesNotContain(WEBHOOK_SECRET).doesNotContain(ExternalPostgres.PASSWORD);

        // pg_restore into a fresh cluster (its empty database svc, owned by the application user)
        ExternalPostgres fresh = deployment.database();
        PgClient restored = new PgClient(fresh);
        t0 = System.nanoTime();
        PgClient.run(restored.command("pg_restore", "--dbname=svc", "--no-owner", "--exit-on-error", dump.toString()));
        long restoreMs = millisSince(t0);
        compare(source, restored, filled);

        // a kernel on the restored database, same settings, same Vault, takes the load balancer over
        t0 = System.nanoTime();
        Replica back = deployment.replica(fresh, plugins, Map.of());
        long readyMs = millisSince(t0);
        lb.servers(List.of(back));
        System.out.printf("BackupRestoreIT: dump %d bytes in %d ms (traffic meanwhile: %s); restore %d ms; kernel on "
                + "the restored database ready %d ms after podman run%n", Files.size(dump), dumpMs, traffic.statuses,
                restoreMs, readyMs);
        assertThat(traffic.failures).as("no request failed while pg_dump ran").isEmpty();
        assertThat(traffic.delivered.get()).as("webhooks arrived during the dump").isPositive();
        servesWhatWasFilled(filled);
        vectorsAreReused(source, restored, back);
    }

    /** Fills the deployment through the load balancer as two people would. */
    private Filled fill() throws Exception {
        String api = lb.url() + "/api/v1";
        int port = target.getAddress().getPort();
        List<String> targets = List.of("db-primary", "web-1");
        for (int i = 0; i < targets.size(); i++) {
            expect(201, send("POST", api + "/targets", alice, Map.of("name", targets.get(i), "product", "bak", "host",
                    "127.0.0.1", "port", port, "notes", "backup drill", "extras", Map.of("scheme", "http"))));
            expect(200, send("PUT", api + "/targets/" + targets.get(i) + "/secret", alice, Map.of("fields",
                    Map.of("username", "svc", "password", SECRETS.get(i)))));
        }
        for (Map.Entry<String, String[]> e : KB.entrySet()) {
            expect(201, send("POST", api + "/kb", alice, Map.of("slug", e.getKey(), "body", e.getValue()[0],
                    "metadata", Map.of("kind", "runbook"))));
        }
        expect(201, send("POST", api + "/memory", alice, Map.of("scope", "tenant", "slug", "maintenance-window",
                "body", "Database maintenance happens on Sunday nights between two and four in the morning.",
                "tags", List.of("ops"))));
        expect(201, send("POST", api + "/memory", bob, Map.of("scope", "user-tenant", "slug", "bob-notes",
                "body", "Remember to rotate the backup encryption key every quarter.")));

        // calls: reads (audited), a write parked twice: one approved by the other person (runs), one left pending
        expect(200, send("POST", api + "/connectors/bak-1.x/enable", alice, null));
        expect(200, send("PATCH", api + "/connectors/bak-1.x/operations/bak.item0.list", alice, Map.of("is_enabled", true)));
        expect(200, send("PATCH", api + "/connectors/bak-1.x/operations/bak.item2.delete", alice,
                Map.of("is_enabled", true, "safety_level", "caution")));
        for (String t : targets) {
            JsonNode read = json(200, send("POST", api + "/operations/call", alice, Map.of("connector_id", "bak-1.x",
                    "op_id", "bak.item0.list", "target", t, "params", Map.of("count", 2))));
            assertThat(read.path("status").asText()).as(read.toString()).isEqualTo("ok");
        }
        String decided = park(api, "old-item");
        JsonNode released = json(200, send("POST", api + "/approvals/" + decided + "/approve", bob, Map.of()));
        assertThat(released.path("result").path("status").asText()).as(released.toString()).isEqualTo("ok");
        String pending = park(api, "later-item");

        // an event source and deliveries
        String slug = json(201, send("POST", api + "/event-sources", alice, Map.of("name", "alerts", "kind",
                "generic-json", "auth_strategy", "static-header", "secret", WEBHOOK_SECRET))).path("slug").asText();
        for (int i = 0; i < 5; i++) {
            assertThat(webhook(slug, "{\"kind\": \"before-backup\", \"n\": " + i + "}").statusCode()).isEqualTo(200);
        }
        // topology: curated edges between targets and a node
        expect(201, send("POST", api + "/topology/edges", alice, Map.of("from", "web-1", "kind", "depends-on", "to",
                "db-primary", "note", "orders are stored there")));
        expect(201, send("POST", api + "/topology/edges", alice, Map.of("from", "db-primary", "from_kind", "target",
                "kind", "runs-on", "to", "node-a", "to_kind", "node")));

        PgClient db = new PgClient(deployment.pg());
        return new Filled(targets, pending, decided, subject(bob), slug, db.rows("audit_rows", "id").keySet(),
                db.rows("events", "id").keySet());
    }

    private String park(String api, String item) throws Exception {
        JsonNode parked = json(200, send("POST", api + "/operations/call", alice, Map.of("connector_id", "bak-1.x",
                "op_id", "bak.item2.delete", "target", "web-1", "params", Map.of("name", item))));
        assertThat(parked.path("status").asText()).as(parked.toString()).isEqualTo("awaiting_approval");
        return parked.path("extras").path("approval_request_id").asText();
    }

    /**
     * The restored database against the source (after the dump; the replica stopped): the records nothing wrote to
     * during the dump are identical row for row; the audit log and the event log are a snapshot: every row written
     * before the dump is there unchanged, every restored row is the source's row, and every event has its audit row.
     */
    /** An audit row's place in its tenant's chain and its link (V059: a row of audit_links). */
    private static final String LINK = "t.seq || ':' || encode(t.hash, 'hex')";

    private void compare(PgClient source, PgClient restored, Filled filled) throws Exception {
        List<String> quiet = List.of("targets_targets", "kb_entries", "retrieval_chunks", "retrieval_docs",
                "memory_entries", "governance_approvals", "catalog_operation_overrides", "event_sources",
                "topology_nodes", "topology_edges", "flyway_schema_history");
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (String table : quiet) {
            List<String> rows = restored.rows(table);
            assertThat(rows).as(table).isNotEmpty().isEqualTo(source.rows(table));
            counts.put(table, rows.size());
        }
        for (String log : List.of("audit_rows", "events")) {
            // an audit row is written once; its link is added after commit by the chainer (docs/operations/audit-log.md),
            // on the source after the dump too, and the links are compared below
            Map<String, String> before = source.rows(log, "id");
            Map<String, String> after = restored.rows(log, "id");
            assertThat(after.keySet()).as(log + ": every row written before the dump")
                    .containsAll(log.equals("events") ? filled.eventIds() : filled.auditIds());
            assertThat(before).as(log + ": the restored rows are the source's rows").containsAllEntriesOf(after);
            counts.put(log, after.size());
            counts.put(log + " (source, after the traffic)", before.size());
        }
        Map<String, String> linkedBefore = source.rows("audit_links", "audit_id", LINK);
        restored.rows("audit_links", "audit_id", LINK).forEach((id, link) ->
                assertThat(link).as("audit row " + id + ": the same link in the restored chain").isEqualTo(linkedBefore.get(id)));
        assertThat(restored.count("SELECT count(*) FROM events e LEFT JOIN audit_rows a ON a.id = e.audit_id "
                + "WHERE a.id IS NULL")).as("every restored event has its audit row").isZero();
        assertThat(restored.count("SELECT count(*) FROM audit_rows a WHERE op_id = 'svc.events.ingest' AND NOT EXISTS "
                + "(SELECT 1 FROM events e WHERE e.audit_id = a.id)")).as("every ingest audit row has its event").isZero();
        System.out.println("BackupRestoreIT: rows compared " + counts);
    }

    /** The kernel on the restored database, through the load balancer: what was filled is there and works. */
    private void servesWhatWasFilled(Filled filled) throws Exception {
        String api = lb.url() + "/api/v1";
        JsonNode targets = json(200, send("GET", api + "/targets", alice, null));
        assertThat(targets.findValuesAsText("name")).containsAll(filled.targets());
        for (String t : filled.targets()) {
            JsonNode shown = json(200, send("GET", api + "/targets/" + t, alice, null));
            assertThat(shown.path("secret_ref").asText()).as(shown.toString())
                    .isEqualTo("tenants/" + deployment.tenant() + "/" + t);
        }
        for (Map.Entry<String, String[]> e : KB.entrySet()) {
            assertThat(json(200, send("GET", api + "/kb/" + e.getKey(), alice, null)).path("body").asText())
                    .isEqualTo(e.getValue()[0]);
            JsonNode hits = json(200, send("POST", api + "/kb/search", bob, Map.of("query", e.getValue()[1],
                    "limit", 3)));
            assertThat(hits.findValuesAsText("slug")).as(hits.toString()).first().isEqualTo(e.getKey());
        }
        JsonNode memory = json(200, send("GET", api + "/memory/tenant/maintenance-window", bob, null));
        assertThat(memory.path("body").asText()).contains("Sunday nights");
        JsonNode recalled = json(200, send("GET", api + "/retrieve?query=" + java.net.URLEncoder.encode(
                "when is the planned downtime for upkeep", java.nio.charset.StandardCharsets.UTF_8), bob, null));
        assertThat(recalled.findValuesAsText("slug")).as(recalled.toString()).contains("maintenance-window");
        assertThat(json(200, send("GET", api + "/memory/user-tenant/bob-notes", bob, null)).path("body").asText())
                .contains("backup encryption key");

        JsonNode decided = json(200, send("GET", api + "/approvals/" + filled.decidedApproval(), alice, null));
        assertThat(decided.path("status").asText()).as(decided.toString()).isEqualTo("approved");
        assertThat(decided.toString()).contains(filled.bobSub());
        JsonNode pending = json(200, send("GET", api + "/approvals/" + filled.pendingApproval(), alice, null));
        assertThat(pending.path("status").asText()).as(pending.toString()).isEqualTo("pending");
        // the pending one is still four-eyes, and approving it runs the call with the secret from the same Vault
        assertThat(send("POST", api + "/approvals/" + filled.pendingApproval() + "/approve", alice, Map.of())
                .statusCode()).isEqualTo(403);
        JsonNode released = json(200, send("POST", api + "/approvals/" + filled.pendingApproval() + "/approve", bob,
                Map.of()));
        assertThat(released.path("result").path("status").asText()).as(released.toString()).isEqualTo("ok");

        JsonNode deps = json(200, send("GET", api + "/topology/dependencies?node=web-1", alice, null));
        assertThat(deps.toString()).contains("db-primary").contains("node-a");
        JsonNode events = json(200, send("GET", api + "/events?source=" + filled.slug() + "&limit=500", alice, null));
        assertThat(events.path("events").findValuesAsText("id")).containsAll(filled.eventIds());
        String someAudit = filled.auditIds().iterator().next();
        expect(200, send("GET", api + "/audit/" + someAudit, alice, null));
        // and it keeps working: a new delivery is accepted
        assertThat(webhook(filled.slug(), "{\"kind\": \"after-restore\"}").statusCode()).isEqualTo(200);
    }

    /**
     * Retrieval's vectors: this machine's PostgreSQL has no pgvector, so the kernel keeps the JVM index, read from
     * {@code retrieval_chunks.embedding} (which the dump carries): after searches on the restored kernel the chunks
     * are still the dumped ones, nothing was embedded again.
     */
    private void vectorsAreReused(PgClient source, PgClient restored, Replica back) throws Exception {
        assertThat(deployment.logs(back)).contains("retrieval: pgvector not used");
        assertThat(restored.count("SELECT count(*) FROM pg_extension WHERE extname = 'vector'")).isZero();
        assertThat(restored.rows("retrieval_chunks")).isEqualTo(source.rows("retrieval_chunks"));
        assertThat(restored.rows("kb_entries")).isEqualTo(source.rows("kb_entries"));
    }

    // --- helpers

    private static HttpResponse<String> webhook(String slug, String body) throws Exception {
        return Http.send(HttpRequest.newBuilder(URI.create(lb.url() + "/api/v1/events/ingest/" + slug))
                .header("X-Svc-Token", WEBHOOK_SECRET).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private static String subject(String token) throws IOException {
        return JSON.readTree(Base64.getUrlDecoder().decode(token.split("\\.")[1])).path("sub").asText();
    }

    private static long millisSince(long t0) {
        return Duration.ofNanos(System.nanoTime() - t0).toMillis();
    }

    /** Light traffic through the load balancer: a webhook delivery and a read every 50 ms. */
    private static final class Traffic {
        final Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
        final List<String> failures = Collections.synchronizedList(new ArrayList<>());
        final AtomicInteger delivered = new AtomicInteger();
        final AtomicBoolean running = new AtomicBoolean(true);
        Thread thread;

        static Traffic start(String slug) {
            Traffic t = new Traffic();
            t.thread = Thread.ofVirtual().start(() -> {
                for (int n = 0; t.running.get(); n++) {
                    try {
                        t.note(webhook(slug, "{\"kind\": \"during-backup\", \"n\": " + n + "}"));
                        t.delivered.incrementAndGet();
                        t.note(send("GET", lb.url() + "/api/v1/targets", alice, null));
                        Thread.sleep(50);
                    } catch (InterruptedException e) {
                        return;
                    } catch (Exception e) {
                        t.failures.add("transport: " + e);
                    }
                }
            });
            return t;
        }

        private void note(HttpResponse<String> r) {
            statuses.merge(r.statusCode(), 1, Integer::sum);
            if (r.statusCode() != 200) {
                failures.add(r.statusCode() + " " + r.uri() + " " + r.body());
            }
        }

        void stop() throws InterruptedException {
            running.set(false);
            thread.join();
        }
    }
}
