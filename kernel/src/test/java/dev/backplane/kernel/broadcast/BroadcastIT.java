package dev.backplane.kernel.broadcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.LoopbackHttp;
import dev.backplane.kernel.testing.LoopbackTarget;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The broadcast activity feed end to end on a real kernel and PostgreSQL: calls, ingests and approval
 * decisions appear in {@code recent} and on the live SSE stream; the stream resumes after
 * {@code Last-Event-ID}, sends heartbeats and drops a slow reader with its reason; announcements are
 * claims until completion or expiry; overrides collapse matching calls into one count per window;
 * bad input, roles and the CLI.
 */
class BroadcastIT extends PerTestTenant {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String SECRET = "broadcast-secret-0123456789";
    private static LoopbackTarget target;

    @BeforeKernel
    static void start(KernelSetup setup) {
        target = LoopbackTarget.start(setup, x -> LoopbackHttp.itemsOr(x, "details"));
        setup.plugin(TestPlugins.connector("bc", "1.x").product("bc").ranges("*").operations(3).httpProbe(false));
        setup.setting("SVC_BROADCAST_HEARTBEAT_SECONDS", "1");
        setup.setting("SVC_BROADCAST_SUBSCRIBER_BUFFER", "10");
        setup.setting("SVC_BROADCAST_AGGREGATE_WINDOW_SECONDS", "5");
        setup.setting("SVC_BROADCAST_MAX_STREAMS_PER_TENANT", "4");
    }

    private void targetReady(String name) {
        target.register(kernel, admin, name, "bc");
        kernel.enableConnector(admin, "bc-1.x");
    }

    private JsonNode call(String token, String op, String targetName, Map<String, Object> params, String workRef) {
        var r = kernel.post("/api/v1/operations/call", token, Map.of("connector_id", "bc-1.x", "op_id", op,
                "target", targetName, "params", params, "work_ref", workRef));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    private List<JsonNode> recent(String token, String query) {
        var r = kernel.get("/api/v1/broadcast/recent" + query, token);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        List<JsonNode> out = new ArrayList<>();
        r.json().path("events").forEach(out::add);
        return out;
    }

    private static void await(String what, BooleanSupplier done) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(40));
        while (Instant.now().isBefore(deadline)) {
            if (done.getAsBoolean()) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("timed out waiting for " + what);
    }

    private void error(TestKernel.Response r, int status, String code) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.json().path("extras").path("error_code").asText(r.json().path("error").asText()))
                .as(r.body()).isEqualTo(code);
    }

    @Test
    void callsAppearInTheFeedWithTheirOutcomeAndPageNewestFirst() throws Exception {
        targetReady("feed-1");
        for (int i = 0; i < 3; i++) {
            assertThat(call(operator, "bc.item0.list", "feed-1", Map.of("count", 2), "CHG-" + i).path("status").asText())
                    .isEqualTo("ok");
        }
        await("three dispatch events", () -> recent(operator, "?target=feed-1").size() == 3);
        List<JsonNode> events = recent(operator, "?target=feed-1");
        JsonNode newest = events.get(0);
        assertThat(newest.path("kind").asText()).isEqualTo("dispatch");
        assertThat(newest.path("op_class").asText()).isEqualTo("read");
        assertThat(newest.path("connector_id").asText()).isEqualTo("bc-1.x");
        assertThat(newest.path("op_id").asText()).isEqualTo("bc.item0.list");
        assertThat(newest.path("status").asText()).isEqualTo("ok");
        assertThat(newest.path("principal").asText()).isEqualTo("op-" + tenant);
        assertThat(newest.path("actor_sub").asText()).isEqualTo("op-" + tenant);
        assertThat(newest.path("work_ref").asText()).isEqualTo("CHG-2");
        assertThat(newest.has("duration_ms")).isTrue();
        assertThat(newest.has("params")).as("no params in the feed").isFalse();
        assertThat(newest.toString()).doesNotContain("p-0123456789");
        assertThat(events.get(0).path("id").asLong()).isGreaterThan(events.get(1).path("id").asLong());

        // filters
        assertThat(recent(operator, "?work_ref=CHG-1")).extracting(e -> e.path("work_ref").asText()).containsExactly("CHG-1");
        assertThat(recent(operator, "?op_class=write&target=feed-1")).isEmpty();
        assertThat(recent(operator, "?principal=op-" + tenant + "&target=feed-1")).hasSize(3);
        assertThat(recent(operator, "?actor_sub=someone-else")).isEmpty();

        // paging: a stream-id cursor, then a time cursor
        var page = kernel.get("/api/v1/broadcast/recent?target=feed-1&limit=2", operator).json();
        assertThat(page.path("events")).hasSize(2);
        String cursor = page.path("next_cursor").asText();
        assertThat(recent(operator, "?target=feed-1&cursor=" + cursor)).extracting(e -> e.path("work_ref").asText())
                .containsExactly("CHG-0");
        assertThat(recent(operator, "?target=feed-1&cursor=" + Instant.now().minusSeconds(3600))).isEmpty();
        assertThat(recent(operator, "?target=feed-1&cursor=" + Instant.now().plusSeconds(60))).hasSize(3);

        // another tenant sees none of it
        UUID other = UUID.randomUUID();
        assertThat(recent(issuer.operator(other), "")).isEmpty();

        // bad input: clear 422s
        error(kernel.get("/api/v1/broadcast/recent?limit=0", operator), 422, "invalid_limit");
        error(kernel.get("/api/v1/broadcast/recent?limit=1001", operator), 422, "invalid_limit");
        error(kernel.get("/api/v1/broadcast/recent?cursor=yesterday-ish", operator), 422, "invalid_cursor");
        error(kernel.get("/api/v1/broadcast/recent?op_class=writes", operator), 422, "invalid_filter");
        error(kernel.get("/api/v1/broadcast/summary?since=30d", operator), 422, "invalid_filter");
        error(kernel.get("/api/v1/broadcast/stream?op_class=nope", operator), 422, "invalid_filter");
        error(kernel.get("/api/v1/broadcast/stream?last_event_id=abc", operator), 422, "invalid_filter");
        assertThat(kernel.get("/api/v1/broadcast/recent", issuer.token("ro-" + tenant, tenant, "read_only")).status())
                .isEqualTo(403);

        // the summary svc status shows
        JsonNode summary = kernel.get("/api/v1/broadcast/summary", operator).json();
        assertThat(summary.path("by_kind").path("dispatch").path("ok").asLong()).isEqualTo(3);
    }

    /** A stream read on a background thread: every data line's JSON (or comment line) lands in {@code lines}. */
    private record Tail(BlockingQueue<String> lines, Thread reader) implements AutoCloseable {
        static Tail open(String token, String query, Optional<String> lastEventId) {
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(kernel.url() + "/api/v1/broadcast/stream" + query))
                    .header("Authorization", "Bearer " + token);
            lastEventId.ifPresent(id -> b.header("Last-Event-ID", id));
            Thread reader = Thread.ofVirtual().start(() -> {
                try {
                    HttpResponse<Stream<String>> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofLines());
                    try (Stream<String> s = r.body()) {
                        s.forEach(lines::add);
                    }
                } catch (Exception e) {
                    lines.add("closed: " + e);
                }
            });
            return new Tail(lines, reader);
        }

        /** The next event's data, skipping comments and other lines. */
        JsonNode next() throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (System.nanoTime() < deadline) {
                String line = lines.poll(200, TimeUnit.MILLISECONDS);
                if (line != null && line.startsWith("data: ")) {
                    return JSON.readTree(line.substring(6));
                }
            }
            throw new AssertionError("no event arrived");
        }

        boolean sawLine(String text) {
            return lines.stream().anyMatch(l -> l.equals(text));
        }

        @Override
        public void close() {
            reader.interrupt();
        }
    }

    private JsonNode announce(String token, Map<String, Object> body) {
        var r = kernel.post("/api/v1/broadcast/announcements", token, body);
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        return r.json();
    }

    @Test
    void theStreamIsLiveFilteredResumableAndBeatsWhileQuiet() throws Exception {
        JsonNode first;
        try (Tail tail = Tail.open(operator, "", Optional.empty());
             Tail writes = Tail.open(operator, "?op_class=write", Optional.empty())) {
            Thread.sleep(500); // both subscribed
            announce(operator, Map.of("activity", "reading the logs", "planned_op_class", "read"));
            first = tail.next();
            assertThat(first.path("activity").asText()).isEqualTo("reading the logs");
            assertThat(first.path("kind").asText()).isEqualTo("announcement");
            announce(operator, Map.of("activity", "rolling the deployment", "planned_op_class", "write"));
            assertThat(tail.next().path("activity").asText()).isEqualTo("rolling the deployment");
            assertThat(writes.next().path("activity").asText()).as("the read announcement is filtered out")
                    .isEqualTo("rolling the deployment");
            Thread.sleep(1500);
            assertThat(tail.sawLine(": heartbeat")).as("a heartbeat while quiet").isTrue();
        }
        // missed while disconnected: replayed after Last-Event-ID, then live
        announce(operator, Map.of("activity", "missed one"));
        announce(operator, Map.of("activity", "missed two"));
        try (Tail resumed = Tail.open(operator, "", Optional.of(first.path("id").asText()))) {
            assertThat(resumed.next().path("activity").asText()).isEqualTo("rolling the deployment");
            assertThat(resumed.next().path("activity").asText()).isEqualTo("missed one");
            assertThat(resumed.next().path("activity").asText()).isEqualTo("missed two");
            announce(operator, Map.of("activity", "live again"));
            assertThat(resumed.next().path("activity").asText()).isEqualTo("live again");
        }
        // another tenant's stream hears nothing of this tenant
        try (Tail other = Tail.open(issuer.operator(UUID.randomUUID()), "", Optional.of("0"))) {
            announce(operator, Map.of("activity", "not for them"));
            Thread.sleep(1500);
            assertThat(other.lines()).noneMatch(l -> l.startsWith("data: "));
        }
    }

    @Test
    void aSlowReaderIsDroppedWithItsReasonNotBufferedWithoutBound() throws Exception {
        announce(operator, Map.of("activity", "before the flood"));
        try (Socket socket = new Socket()) {
            socket.setReceiveBufferSize(4096);
            socket.connect(new java.net.InetSocketAddress("127.0.0.1", kernel.kernel().port()));
            OutputStream out = socket.getOutputStream();
            out.write(("GET /api/v1/broadcast/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + operator
                    + "\r\nAccept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Thread.sleep(500); // subscribed; now 20,000 events arrive while this reader reads nothing
            kernel.jdbc().inTransaction(c -> {
                var ids = dev.backplane.kernel.persistence.Jdbc.query(c, """
                        INSERT INTO broadcast_events (tenant_id, at, kind, activity, principal, actor_sub, status)
                        SELECT ?, now(), 'dispatch', 'flood ' || g || ' ' || repeat('x', 400), 'op', 'op', 'ok'
                        FROM generate_series(1, 20000) g RETURNING id""", rs -> rs.getLong(1), tenant);
                dev.backplane.kernel.persistence.ChangeFeed.notifyOnCommit(c, "broadcast", ids.getFirst() + "-"
                        + ids.getLast());
                return null;
            });
            Thread.sleep(3000);
            socket.setSoTimeout(20_000);
            InputStream in = socket.getInputStream();
            StringBuilder tail = new StringBuilder();
            byte[] buf = new byte[65536];
            int n;
            long read = 0;
            while ((n = in.read(buf)) > 0) {
                read += n;
                tail.append(new String(buf, 0, n, StandardCharsets.UTF_8));
                if (tail.length() > 200_000) {
                    tail.delete(0, tail.length() - 100_000);
                }
                if (tail.indexOf("event: dropped") >= 0 && tail.indexOf("\n\n", tail.indexOf("event: dropped")) > 0) {
                    break;
                }
            }
            String text = tail.toString();
            assertThat(text).as("read " + read + " bytes").contains("event: dropped");
            assertThat(text.substring(text.indexOf("event: dropped"))).contains("slow consumer")
                    .contains("Last-Event-ID");
            assertThat(read).as("far fewer than the 20,000 events were sent").isLessThan(20_000L * 400);
        }
    }

    @Test
    void announcementsAreClaimsUntilTheirCompletionOrExpiry() throws Exception {
        JsonNode started = announce(operator, Map.of("activity", "upgrading the cluster", "run_id", "up-1",
                "planned_op_class", "write", "targets", List.of("k8s-a", "k8s-b"), "ttl_minutes", 30, "scope", "all nodes",
                "work_ref", "CHG-9"));
        assertThat(started.path("active").asBoolean()).isTrue();
        assertThat(started.path("phase").asText()).isEqualTo("start");
        assertThat(started.path("op_class").asText()).isEqualTo("write");
        assertThat(started.path("expires_at").asText()).isNotEmpty();
        assertThat(recent(operator, "?active_only=true")).extracting(e -> e.path("activity").asText())
                .containsExactly("upgrading the cluster");
        assertThat(recent(operator, "?target=k8s-b")).hasSize(1);

        announce(operator, Map.of("activity", "upgrading the cluster: node 2 of 3", "run_id", "up-1", "phase", "update"));
        assertThat(recent(operator, "?active_only=true")).extracting(e -> e.path("activity").asText())
                .containsExactly("upgrading the cluster: node 2 of 3");
        // someone else's claim with the same run id is theirs
        announce(admin, Map.of("activity", "admin's own work", "run_id", "up-1"));
        assertThat(recent(operator, "?active_only=true")).hasSize(2);

        JsonNode done = announce(operator, Map.of("activity", "cluster upgraded", "run_id", "up-1", "phase", "completion"));
        assertThat(done.path("active").asBoolean()).isFalse();
        assertThat(recent(operator, "?active_only=true")).extracting(e -> e.path("activity").asText())
                .containsExactly("admin's own work");

        // a claim nobody completes lapses at its TTL (the clock moved by rewriting the expiry)
        kernel.jdbc().update("UPDATE broadcast_events SET expires_at = now() - interval '1 second' WHERE tenant_id = ? "
                + "AND activity = 'admin''s own work'", tenant);
        assertThat(recent(operator, "?active_only=true")).isEmpty();
        assertThat(kernel.get("/api/v1/broadcast/summary", operator).json().path("active_claims").asLong()).isZero();

        // bad input
        error(kernel.post("/api/v1/broadcast/announcements", operator, Map.of("phase", "start")), 422, "invalid_announcement");
        error(kernel.post("/api/v1/broadcast/announcements", operator, Map.of("activity", "x", "ttl_minutes", 0)), 422,
                "invalid_announcement");
        error(kernel.post("/api/v1/broadcast/announcements", operator, Map.of("activity", "x", "ttl_minutes", 1441)), 422,
                "invalid_announcement");
        error(kernel.post("/api/v1/broadcast/announcements", operator, Map.of("activity", "x", "phase", "halfway")), 422,
                "invalid_announcement");
        error(kernel.post("/api/v1/broadcast/announcements", operator, Map.of("activity", "x", "planned_op_class",
                "destroy")), 422, "invalid_announcement");
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 51; i++) {
            many.add("t-" + i);
        }
        error(kernel.post("/api/v1/broadcast/announcements", operator, Map.of("activity", "x", "targets", many)), 422,
                "invalid_announcement");
        error(kernel.post("/api/v1/broadcast/announcements", operator, Map.of("activity", "x".repeat(501))), 422,
                "invalid_announcement");
        error(kernel.post("/api/v1/broadcast/announcements", operator, Map.of("activity", "x", "colour", "red")), 422,
                "invalid_request");
        assertThat(kernel.post("/api/v1/broadcast/announcements", issuer.token("ro-" + tenant, tenant, "read_only"),
                Map.of("activity", "x")).status()).isEqualTo(403);
    }

    @Test
    void anAggregateOverrideCollapsesMatchingCallsIntoOneCountPerWindow() throws Exception {
        targetReady("agg-1");
        // roles and bad input first
        assertThat(kernel.post("/api/v1/broadcast/overrides", operator, Map.of("op_id_pattern", "bc.*", "detail",
                "aggregate")).status()).isEqualTo(403);
        error(kernel.post("/api/v1/broadcast/overrides", admin, Map.of("op_id_pattern", "^bc\\..*$", "detail",
                "aggregate")), 422, "invalid_op_id_pattern");
        error(kernel.post("/api/v1/broadcast/overrides", admin, Map.of("op_id_pattern", "bc.(list|get)", "detail",
                "aggregate")), 422, "invalid_op_id_pattern");
        error(kernel.post("/api/v1/broadcast/overrides", admin, Map.of("op_id_pattern", "bc.*", "detail", "some")), 422,
                "invalid_override");
        error(kernel.post("/api/v1/broadcast/overrides", admin, Map.of("op_id_pattern", "bc.*", "detail", "full",
                "scope_field", "namespace")), 422, "invalid_override");
        error(kernel.post("/api/v1/broadcast/overrides", admin, Map.of("op_id_pattern", "bc.*", "detail", "full",
                "scope_value", "prod")), 422, "invalid_override");
        error(kernel.post("/api/v1/broadcast/overrides", admin, Map.of("op_id_pattern", "bc.*", "detail", "full",
                "scope_field", "pod", "scope_value", "x")), 422, "invalid_override");

        var set = kernel.post("/api/v1/broadcast/overrides", admin, Map.of("op_id_pattern", "bc.item0.*", "detail",
                "aggregate"));
        assertThat(set.status()).as(set.body()).isEqualTo(200);
        String id = set.json().path("id").asText();
        // a more specific rule for one target wins over the op-wide one
        assertThat(kernel.post("/api/v1/broadcast/overrides", admin, Map.of("op_id_pattern", "bc.item0.*", "detail",
                "full", "scope_field", "target_name", "scope_value", "agg-other")).status()).isEqualTo(200);
        // setting the same pattern and scope again changes it in place
        var again = kernel.post("/api/v1/broadcast/overrides", admin, Map.of("op_id_pattern", "bc.item0.*", "detail",
                "aggregate"));
        assertThat(again.json().path("id").asText()).isEqualTo(id);
        assertThat(kernel.get("/api/v1/broadcast/overrides?op_id_pattern=bc.item0.*", operator).json().path("overrides"))
                .hasSize(2);

        for (int i = 0; i < 4; i++) {
            call(operator, "bc.item0.list", "agg-1", Map.of("count", 1), "AGG");
        }
        call(operator, "bc.item1.get", "agg-1", Map.of("name", "a"), "AGG");
        await("the unmatched call as its own event", () -> recent(operator, "?work_ref=AGG").stream()
                .anyMatch(e -> e.path("op_id").asText().equals("bc.item1.get")));
        assertThat(recent(operator, "?target=agg-1")).noneMatch(e -> e.path("op_id").asText().equals("bc.item0.list")
                && e.path("kind").asText().equals("dispatch"));
        await("the window's aggregate", () -> recent(operator, "?target=agg-1").stream()
                .anyMatch(e -> e.path("kind").asText().equals("aggregate")));
        JsonNode agg = recent(operator, "?target=agg-1").stream().filter(e -> e.path("kind").asText().equals("aggregate"))
                .findFirst().orElseThrow();
        assertThat(agg.path("count").asInt()).isEqualTo(4);
        assertThat(agg.path("statuses").path("ok").asInt()).isEqualTo(4);
        assertThat(agg.path("op_id").asText()).isEqualTo("bc.item0.list");
        assertThat(agg.path("op_class").asText()).isEqualTo("read");
        assertThat(agg.path("principals")).extracting(JsonNode::asText).containsExactly("op-" + tenant);
        assertThat(agg.path("window_end").asText()).isNotEmpty();
        assertThat(kernel.jdbc().queryOne("SELECT count(*) FROM broadcast_windows WHERE tenant_id = ?",
                rs -> rs.getLong(1), tenant).orElseThrow()).as("the window is gone once flushed").isZero();

        assertThat(kernel.delete("/api/v1/broadcast/overrides/" + id, operator).status()).isEqualTo(403);
        assertThat(kernel.delete("/api/v1/broadcast/overrides/" + id, admin).status()).isEqualTo(200);
        error(kernel.delete("/api/v1/broadcast/overrides/" + id, admin), 404, "override_not_found");
        error(kernel.delete("/api/v1/broadcast/overrides/not-a-uuid", admin), 404, "override_not_found");
        error(kernel.delete("/api/v1/broadcast/overrides/" + id, issuer.tenantAdmin(UUID.randomUUID())), 404,
                "override_not_found");
        call(operator, "bc.item0.list", "agg-1", Map.of("count", 1), "AFTER");
        await("calls are single events again", () -> !recent(operator, "?work_ref=AFTER").isEmpty());
    }

    @Test
    void ingestsAndApprovalDecisionsAreInTheFeed() throws Exception {
        targetReady("appr-1");
        var source = kernel.post("/api/v1/event-sources", admin, Map.of("name", "feed-src", "kind", "generic-json",
                "auth_strategy", "static-header", "secret", SECRET));
        assertThat(source.status()).as(source.body()).isEqualTo(201);
        HttpResponse<String> ingest = HTTP.send(HttpRequest.newBuilder(URI.create(kernel.url() + "/api/v1/events/ingest/"
                        + source.json().path("slug").asText())).header("Content-Type", "application/json")
                .header("X-Svc-Token", SECRET).POST(HttpRequest.BodyPublishers.ofString("{\"event_type\": \"disk.full\"}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(ingest.statusCode()).as(ingest.body()).isEqualTo(200);
        await("the ingest event", () -> recent(operator, "").stream().anyMatch(e -> e.path("kind").asText().equals("ingest")));
        JsonNode ingested = recent(operator, "").stream().filter(e -> e.path("kind").asText().equals("ingest")).findFirst()
                .orElseThrow();
        assertThat(ingested.path("principal").asText()).startsWith("svc-ingest:");
        assertThat(ingested.path("status").asText()).isEqualTo("accepted");

        assertThat(kernel.patch("/api/v1/connectors/bc-1.x/operations/bc.item2.delete", admin, Map.of("is_enabled", true,
                "safety_level", "caution")).status()).isEqualTo(200);
        JsonNode parked = call(operator, "bc.item2.delete", "appr-1", Map.of("name", "x"), "APPR");
        assertThat(parked.path("status").asText()).as(parked.toString()).isEqualTo("awaiting_approval");
        String approval = parked.path("extras").path("approval_request_id").asText();
        var approved = kernel.post("/api/v1/approvals/" + approval + "/approve", admin, Map.of("reason", "fine"));
        assertThat(approved.status()).as(approved.body()).isEqualTo(200);
        await("the decision and the released call", () -> recent(operator, "?work_ref=APPR").size() == 3);
        List<JsonNode> trail = recent(operator, "?work_ref=APPR");
        assertThat(trail).extracting(e -> e.path("kind").asText() + ":" + e.path("status").asText())
                .containsExactlyInAnyOrder("dispatch:awaiting_approval", "approval:approved", "dispatch:ok");
        JsonNode decision = trail.stream().filter(e -> e.path("kind").asText().equals("approval")).findFirst().orElseThrow();
        assertThat(decision.path("principal").asText()).as("the requester").isEqualTo("op-" + tenant);
        assertThat(decision.path("actor_sub").asText()).as("the approver").isEqualTo("admin-" + tenant);
        assertThat(decision.path("target").asText()).isEqualTo("appr-1");
    }

    @Test
    void theCliAnnouncesListsWatchesAndSetsOverrides() throws Exception {
        Path home = TempDirs.create("svc-cli-broadcast");
        CliRunner op = kernel.cli(home.resolve("op"), operator);
        CliRunner adm = kernel.cli(home.resolve("admin"), admin);

        CliRunner.Result a = op.run("broadcast", "announce", "patching node pool", "--planned-op-class", "write",
                "--targets", "pool-a,pool-b", "--ttl-minutes", "20", "--run-id", "cli-1");
        assertThat(a.exitCode()).as(a.toString()).isZero();
        assertThat(a.out()).contains("announced").contains("patching node pool");
        String id = a.out().replaceAll("(?s).*stream id (\\d+).*", "$1");

        CliRunner.Result recent = op.run("broadcast", "recent", "--active-only");
        assertThat(recent.exitCode()).as(recent.toString()).isZero();
        assertThat(recent.out()).contains("ACTIVITY").contains("patching node pool").contains("pool-a,pool-b");
        CliRunner.Result json = op.run("broadcast", "recent", "--limit", "1", "--json");
        assertThat(JSON.readTree(json.out()).path("events").get(0).path("activity").asText()).isEqualTo("patching node pool");
        assertThat(op.run("broadcast", "recent", "--limit", "0").exitCode()).isEqualTo(2);

        // watch replays after a stream id and stops after --count
        op.run("broadcast", "announce", "patched", "--phase", "completion", "--run-id", "cli-1");
        CliRunner.Result watch = op.run("broadcast", "watch", "--after", id, "--count", "1");
        assertThat(watch.exitCode()).as(watch.toString()).isZero();
        assertThat(watch.out()).contains("announcement").contains("patched");
        CliRunner.Result watchJson = op.run("broadcast", "watch", "--after", "0", "--count", "2", "--json");
        assertThat(watchJson.out().lines().map(l -> {
            try {
                return JSON.readTree(l).path("activity").asText();
            } catch (Exception e) {
                throw new AssertionError(l, e);
            }
        })).containsExactly("patching node pool", "patched");
        assertThat(op.run("broadcast", "watch", "--op-class", "bogus").exitCode()).isEqualTo(2);

        CliRunner.Result set = adm.run("broadcast", "overrides", "set", "--op-id-pattern", "k8s.pod.*", "--detail",
                "aggregate", "--scope-field", "namespace", "--scope-value", "kube-system");
        assertThat(set.exitCode()).as(set.toString()).isZero();
        assertThat(set.out()).contains("k8s.pod.*").contains("namespace=kube-system");
        CliRunner.Result denied = op.run("broadcast", "overrides", "set", "--op-id-pattern", "x*", "--detail", "full");
        assertThat(denied.exitCode()).as(denied.toString()).isEqualTo(3);
        CliRunner.Result regex = adm.run("broadcast", "overrides", "set", "--op-id-pattern", "k8s|pod", "--detail", "full");
        assertThat(regex.exitCode()).isEqualTo(1);
        assertThat(regex.err()).contains("invalid_op_id_pattern");
        CliRunner.Result list = op.run("broadcast", "overrides", "list");
        assertThat(list.out()).contains("k8s.pod.*").contains("aggregate");
        String overrideId = list.out().lines().filter(l -> l.contains("k8s.pod.*")).findFirst().orElseThrow().split("\\s+")[0];
        assertThat(adm.run("broadcast", "overrides", "remove", overrideId).out()).contains("removed override");
        assertThat(op.run("broadcast", "overrides", "list").out()).contains("no overrides");

        CliRunner.Result status = op.run("status");
        assertThat(status.exitCode()).as(status.toString()).isZero();
        assertThat(status.out()).containsPattern("activity\\s+\\d+ events in the last hour: announcement");
        CliRunner.Result roStatus = kernel.cli(home.resolve("ro"), issuer.token("ro-" + tenant, tenant, "read_only"))
                .run("status");
        assertThat(roStatus.exitCode()).as(roStatus.toString()).isZero();
        assertThat(roStatus.out()).contains("needs the operator role");
        assertThat(op.run("status", "--target", "x").exitCode()).as("filters need --watch").isEqualTo(2);
    }

    @Test
    void aTenantsOpenStreamsAreCappedAndABrokenGlobClassBreaksNothing() throws Exception {
        List<Tail> open = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                open.add(Tail.open(operator, "", Optional.empty()));
            }
            Thread.sleep(800);
            error(kernel.get("/api/v1/broadcast/stream", operator), 429, "too_many_streams");
            assertThat(recent(issuer.operator(UUID.randomUUID()), "")).as("other tenants are not affected").isEmpty();
            try (Tail other = Tail.open(issuer.operator(UUID.randomUUID()), "", Optional.empty())) {
                Thread.sleep(500);
                assertThat(other.lines()).anyMatch(l -> l.startsWith(": streaming"));
            }
        } finally {
            open.forEach(Tail::close);
        }
        // classes that are no valid regex ([z-a], []) are accepted as globs that match nothing, and the feed goes on
        targetReady("glob-1");
        for (String pattern : List.of("bc.[z-a]*", "bc.item[]*", "*e*e*e*e*e*e*e*e*e*e*e*x")) {
            assertThat(kernel.post("/api/v1/broadcast/overrides", admin, Map.of("op_id_pattern", pattern, "detail",
                    "aggregate")).status()).as(pattern).isEqualTo(200);
        }
        call(operator, "bc.item0.list", "glob-1", Map.of("count", 1), "GLOB");
        await("the call as its own event", () -> !recent(operator, "?work_ref=GLOB").isEmpty());
    }
}
