package dev.backplane.kernel.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelTest;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TempDirs;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Event sources and webhook ingest over real HTTP against a real kernel on real PostgreSQL: every
 * answer of SPEC's ingest order (404 identical for unknown and paused, uniform 401, 413 by header and
 * while streaming, 429 with Retry-After, 400, idempotent 200), signatures computed here with the
 * JDK's HMAC (not with the production code), rotation with an overlap, the event log and its audit
 * rows in one transaction, tenant isolation, roles, a bounded fuzz of the ingest route, and the CLI.
 */
@KernelTest(settings = "SVC_EVENTS_MAX_BODY_BYTES=65536")
class EventsIT extends PerTestTenant {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SECRET = "s3cret-for-hmac-0123456789";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static Jdbc jdbc;

    @BeforeAll
    static void jdbc() {
        jdbc = kernel.jdbc();
    }

    private JsonNode create(String token, Map<String, Object> body, int expected) throws Exception {
        var r = kernel.send("POST", "/api/v1/event-sources", token, JSON.writeValueAsString(body), Map.of());
        assertThat(r.status()).as(r.body()).isEqualTo(expected);
        assertThat(r.body()).doesNotContain(SECRET);
        return r.json();
    }

    private static Map<String, Object> source(String name, String kind, String strategy, Object extras) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("kind", kind);
        m.put("auth_strategy", strategy);
        m.put("secret", SECRET);
        if (extras != null) {
            m.put("extras", extras);
        }
        return m;
    }

    static HttpResponse<String> post(String slug, byte[] body, Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(kernel.url() + "/api/v1/events/ingest/" + slug))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).header("Content-Type", "application/json");
        headers.forEach(b::header);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Standard Webhooks signature, computed independently of the kernel's code. */
    static String sign(String secret, String id, long ts, byte[] body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        mac.update((id + "." + ts + ".").getBytes(StandardCharsets.UTF_8));
        return "v1," + Base64.getEncoder().encodeToString(mac.doFinal(body));
    }

    static Map<String, String> signed(String secret, String id, byte[] body) throws Exception {
        long ts = Instant.now().getEpochSecond();
        return Map.of("webhook-id", id, "webhook-timestamp", String.valueOf(ts), "webhook-signature",
                sign(secret, id, ts, body));
    }

    private long events(String slug) {
        return jdbc.queryOne("SELECT count(*) FROM events WHERE source_slug = ?", rs -> rs.getLong(1), slug).orElseThrow();
    }

    private long ingestAudits(String slug) {
        return jdbc.queryOne("SELECT count(*) FROM audit_rows WHERE op_id = 'svc.events.ingest' AND target = ?",
                rs -> rs.getLong(1), slug).orElseThrow();
    }

    @Test
    void anHmacSourceAcceptsSignedDeliveriesOnceAndRefusesEverythingElseUniformly() throws Exception {
        JsonNode s = create(admin, source("grafana-" + tenant, "dashalert", "hmac-sha256", null), 201);
        String slug = s.path("slug").asText();
        assertThat(slug).matches("es-[a-z2-7]{26}");
        byte[] body = """
                {"receiver":"svc","status":"firing","state":"alerting","groupKey":"{}:{alertname=\\"HighCPU\\"}",
                 "commonLabels":{"severity":"critical","alertname":"HighCPU"},"alerts":[{"status":"firing",
                 "labels":{"alertname":"HighCPU"},"fingerprint":"abc"}]}""".getBytes(StandardCharsets.UTF_8);
        var ok = post(slug, body, signed(SECRET, "msg-1", body));
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
        JsonNode accepted = JSON.readTree(ok.body());
        assertThat(accepted.path("status").asText()).isEqualTo("accepted");
        String eventId = accepted.path("event_id").asText();

        var again = post(slug, body, signed(SECRET, "msg-1", body));
        assertThat(again.statusCode()).as("a redelivery is an idempotent 200").isEqualTo(200);
        assertThat(JSON.readTree(again.body()).path("duplicate").asBoolean()).isTrue();
        assertThat(JSON.readTree(again.body()).path("event_id").asText()).isEqualTo(eventId);
        assertThat(events(slug)).isEqualTo(1);
        assertThat(ingestAudits(slug)).as("one audit row per accepted event").isEqualTo(1);

        // every refusal is the same 401
        long old = Instant.now().getEpochSecond() - 3600;
        List<Map<String, String>> bad = List.of(Map.of(),
                signed("wrong-secret-0123456789", "msg-2", body),
                Map.of("webhook-id", "msg-3", "webhook-timestamp", String.valueOf(old), "webhook-signature",
                        sign(SECRET, "msg-3", old, body)),
                Map.of("webhook-id", "msg-4", "webhook-signature", sign(SECRET, "msg-4", old, body)),
                Map.of("webhook-id", "msg-5", "webhook-timestamp", "soon", "webhook-signature", "v1,AAAA"),
                Map.of("webhook-signature", "sha256=zz"));
        String first = null;
        for (Map<String, String> h : bad) {
            var r = post(slug, body, h);
            assertThat(r.statusCode()).as(h.toString()).isEqualTo(401);
            first = first == null ? r.body().replaceAll("\"request_id\":\"[^\"]*\"", "") : first;
            assertThat(r.body().replaceAll("\"request_id\":\"[^\"]*\"", "")).isEqualTo(first);
        }
        // a signed body altered in flight
        Map<String, String> h = signed(SECRET, "msg-6", body);
        byte[] altered = new String(body, StandardCharsets.UTF_8).replace("critical", "warning")
                .getBytes(StandardCharsets.UTF_8);
        assertThat(post(slug, altered, h).statusCode()).isEqualTo(401);
        assertThat(events(slug)).as("nothing stored from refused deliveries").isEqualTo(1);

        // the plain sha256=<hex> form over the body alone
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        byte[] other = "{\"status\":\"resolved\",\"state\":\"ok\"}".getBytes(StandardCharsets.UTF_8);
        var plain = post(slug, other, Map.of("webhook-signature", "sha256=" + HexFormat.of().formatHex(mac.doFinal(other))));
        assertThat(plain.statusCode()).as(plain.body()).isEqualTo(200);

        // the event log: envelope lifted, raw verbatim, tenant-scoped
        var shown = kernel.get("/api/v1/events/" + eventId, operator);
        assertThat(shown.status()).isEqualTo(200);
        JsonNode env = shown.json().path("envelope");
        assertThat(env.path("state").asText()).isEqualTo("alerting");
        assertThat(env.path("labels").path("severity").asText()).isEqualTo("critical");
        assertThat(env.path("source").path("slug").asText()).isEqualTo(slug);
        assertThat(env.path("raw")).isEqualTo(JSON.readTree(body));
        var list = kernel.get("/api/v1/events?source=" + slug + "&limit=1", operator).json();
        assertThat(list.path("events")).hasSize(1);
        assertThat(list.path("next_cursor").asText()).isNotEmpty();
        var older = kernel.get("/api/v1/events?source=" + slug + "&cursor="
                + java.net.URLEncoder.encode(list.path("next_cursor").asText(), StandardCharsets.UTF_8), operator).json();
        assertThat(older.path("events")).hasSize(1);
        UUID stranger = UUID.randomUUID();
        String strangerOp = issuer.token("op-x", stranger, "operator");
        assertThat(kernel.get("/api/v1/events/" + eventId, strangerOp).status()).isEqualTo(404);
        assertThat(kernel.get("/api/v1/events", strangerOp).json().path("events")).isEmpty();
        assertThat(kernel.get("/api/v1/event-sources/" + slug, strangerOp).status()).isEqualTo(404);
    }

    /** The plain body-only HMAC, computed independently of the kernel's code. */
    static String plainSignature(String secret, byte[] body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
    }

    /**
     * S7: in the plain {@code sha256=} form only the body is signed, so a delivery-id header is the
     * replayer's to choose. A captured body and signature re-posted under fresh ids is the same
     * delivery (idempotent 200 naming the original event, nothing stored, no audit row); a genuine
     * retry is too; a different body is a new event. In the Standard Webhooks form the id is signed and
     * keeps deciding: the same body under two signed ids is two events.
     */
    @Test
    void aPlainHmacDeliveryReplayedUnderAFreshDeliveryIdIsADuplicate() throws Exception {
        JsonNode s = create(admin, source("gh-" + tenant, "generic-json", "hmac-sha256",
                Map.of("signature_header", "X-Hub-Signature-256", "id_header", "X-GitHub-Delivery")), 201);
        String slug = s.path("slug").asText();
        byte[] body = "{\"event_type\":\"deploy.finished\",\"ref\":\"main\"}".getBytes(StandardCharsets.UTF_8);
        String signature = plainSignature(SECRET, body);
        var first = post(slug, body, Map.of("X-Hub-Signature-256", signature, "X-GitHub-Delivery", "d-1"));
        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        JsonNode accepted = JSON.readTree(first.body());
        assertThat(accepted.path("status").asText()).isEqualTo("accepted");
        String eventId = accepted.path("event_id").asText();

        List<Map<String, String>> replays = List.of(
                Map.of("X-Hub-Signature-256", signature, "X-GitHub-Delivery", "d-1"),
                Map.of("X-Hub-Signature-256", signature, "X-GitHub-Delivery", "r1"),
                Map.of("X-Hub-Signature-256", signature, "X-GitHub-Delivery", "r2"),
                Map.of("X-Hub-Signature-256", signature, "X-GitHub-Delivery", UUID.randomUUID().toString()),
                Map.of("X-Hub-Signature-256", signature, "webhook-id", "r3"),
                Map.of("X-Hub-Signature-256", signature));
        for (Map<String, String> h : replays) {
            var r = post(slug, body, h);
            assertThat(r.statusCode()).as(h + " " + r.body()).isEqualTo(200);
            JsonNode answer = JSON.readTree(r.body());
            assertThat(answer.path("status").asText()).as(h.toString()).isEqualTo("duplicate");
            assertThat(answer.path("duplicate").asBoolean()).isTrue();
            assertThat(answer.path("event_id").asText()).as("the original event").isEqualTo(eventId);
        }
        assertThat(events(slug)).as("a replay stores nothing").isEqualTo(1);
        assertThat(ingestAudits(slug)).isEqualTo(1);

        byte[] other = "{\"event_type\":\"deploy.finished\",\"ref\":\"release\"}".getBytes(StandardCharsets.UTF_8);
        var next = post(slug, other, Map.of("X-Hub-Signature-256", plainSignature(SECRET, other),
                "X-GitHub-Delivery", "d-1"));
        assertThat(JSON.readTree(next.body()).path("status").asText()).as("a different body is a new event, "
                + "whatever id header it reuses").isEqualTo("accepted");
        assertThat(events(slug)).isEqualTo(2);

        // Standard Webhooks on another source: the signed id decides, as before
        JsonNode std = create(admin, source("std-" + tenant, "generic-json", "hmac-sha256", null), 201);
        String stdSlug = std.path("slug").asText();
        assertThat(JSON.readTree(post(stdSlug, body, signed(SECRET, "m-1", body)).body()).path("status").asText())
                .isEqualTo("accepted");
        assertThat(JSON.readTree(post(stdSlug, body, signed(SECRET, "m-1", body)).body()).path("status").asText())
                .isEqualTo("duplicate");
        assertThat(JSON.readTree(post(stdSlug, body, signed(SECRET, "m-2", body)).body()).path("status").asText())
                .as("a new signed id is a new delivery").isEqualTo("accepted");
        assertThat(events(stdSlug)).isEqualTo(2);
    }

    /** Grafana's plain form with a timestamp: hex HMAC of "<unix seconds>:<body>", computed independently. */
    static String stampedSignature(String secret, long ts, byte[] body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        mac.update((ts + ":").getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(mac.doFinal(body));
    }

    /**
     * S7, the signed timestamp: a source may require Grafana's timestamped plain form, which binds the
     * time into the signature; then a captured delivery is refused once outside the replay window (and
     * inside it is a duplicate, as a sender's retry with a fresh timestamp is), and the body-only form is
     * refused. Without the requirement both forms are accepted.
     */
    @Test
    void aSourceCanRequireASignedTimestampInThePlainForm() throws Exception {
        String sigHeader = "X-Grafana-Alerting-Signature";
        String tsHeader = "X-Grafana-Alerting-Timestamp";
        create(admin, source("ts-bad-" + tenant, "dashalert", "hmac-sha256", Map.of("require_timestamp", "yes")), 422);
        JsonNode s = create(admin, source("ts-" + tenant, "dashalert", "hmac-sha256", Map.of("signature_header",
                sigHeader, "timestamp_header", tsHeader, "require_timestamp", true)), 201);
        String slug = s.path("slug").asText();
        assertThat(s.path("extras").path("require_timestamp").asBoolean()).isTrue();
        byte[] body = "{\"status\":\"firing\",\"labels\":{\"n\":\"1\"}}".getBytes(StandardCharsets.UTF_8);
        long now = Instant.now().getEpochSecond();
        var first = post(slug, body, Map.of(sigHeader, stampedSignature(SECRET, now, body), tsHeader, String.valueOf(now)));
        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        assertThat(JSON.readTree(first.body()).path("status").asText()).isEqualTo("accepted");
        var retry = post(slug, body, Map.of(sigHeader, stampedSignature(SECRET, now + 1, body), tsHeader,
                String.valueOf(now + 1)));
        assertThat(JSON.readTree(retry.body()).path("status").asText()).as("a retry with a fresh timestamp")
                .isEqualTo("duplicate");
        long old = now - 3600;
        byte[] other = "{\"status\":\"firing\",\"labels\":{\"n\":\"2\"}}".getBytes(StandardCharsets.UTF_8);
        for (Map<String, String> refused : List.of(
                Map.of(sigHeader, stampedSignature(SECRET, old, other), tsHeader, String.valueOf(old)),
                Map.of(sigHeader, plainSignature(SECRET, other)),
                Map.of(sigHeader, plainSignature(SECRET, other), tsHeader, String.valueOf(now)),
                Map.of(sigHeader, stampedSignature(SECRET, now, other), tsHeader, String.valueOf(now + 5)))) {
            assertThat(post(slug, other, refused).statusCode()).as(refused.toString()).isEqualTo(401);
        }
        assertThat(events(slug)).isEqualTo(1);

        JsonNode lax = create(admin, source("ts-lax-" + tenant, "dashalert", "hmac-sha256", Map.of("signature_header",
                sigHeader, "timestamp_header", tsHeader)), 201);
        String laxSlug = lax.path("slug").asText();
        assertThat(post(laxSlug, body, Map.of(sigHeader, plainSignature(SECRET, body))).statusCode()).isEqualTo(200);
        assertThat(post(laxSlug, other, Map.of(sigHeader, stampedSignature(SECRET, now, other), tsHeader,
                String.valueOf(now))).statusCode()).isEqualTo(200);
        assertThat(post(laxSlug, other, Map.of(sigHeader, stampedSignature(SECRET, old, other), tsHeader,
                String.valueOf(old))).statusCode()).as("a signed timestamp is checked whenever it is sent").isEqualTo(401);
        assertThat(events(laxSlug)).isEqualTo(2);
    }

    @Test
    void unknownAndPausedSlugsAnswerTheSame404() throws Exception {
        JsonNode s = create(admin, source("am-" + tenant, "alertrouter", "static-header",
                Map.of("secret_header", "X-Am-Token")), 201);
        String slug = s.path("slug").asText();
        byte[] body = "{\"status\":\"firing\"}".getBytes(StandardCharsets.UTF_8);
        assertThat(post(slug, body, Map.of("X-Am-Token", SECRET)).statusCode()).isEqualTo(200);
        assertThat(kernel.send("POST", "/api/v1/event-sources/" + slug + "/pause", admin, null, Map.of()).status())
                .isEqualTo(200);
        var paused = post(slug, body, Map.of("X-Am-Token", SECRET));
        var unknown = post("es-aaaaaaaaaaaaaaaaaaaaaaaaaa", body, Map.of("X-Am-Token", SECRET));
        var malformed = post("x", body, Map.of());
        for (var r : List.of(paused, unknown, malformed)) {
            assertThat(r.statusCode()).isEqualTo(404);
            assertThat(r.body().replaceAll("\"request_id\":\"[^\"]*\"", ""))
                    .isEqualTo(unknown.body().replaceAll("\"request_id\":\"[^\"]*\"", ""));
        }
        assertThat(kernel.send("POST", "/api/v1/event-sources/" + slug + "/resume", admin, null, Map.of()).status())
                .isEqualTo(200);
        assertThat(post(slug, "{\"status\":\"resolved\"}".getBytes(StandardCharsets.UTF_8),
                Map.of("X-Am-Token", SECRET)).statusCode()).isEqualTo(200);
        assertThat(post(slug, body, Map.of("X-Am-Token", SECRET + "x")).statusCode()).isEqualTo(401);
        assertThat(jdbc.query("SELECT op_id FROM audit_rows WHERE tenant_id = ? AND op_id LIKE 'svc.event_sources.%' "
                + "ORDER BY occurred_at", rs -> rs.getString(1), tenant)).as("pause and resume are audited")
                .containsExactly("svc.event_sources.create", "svc.event_sources.pause", "svc.event_sources.resume");
    }

    @Test
    void capsRateLimitsAndNonJsonBodies() throws Exception {
        JsonNode s = create(admin, source("generic-" + tenant, "generic-json", "basic",
                Map.of("max_body_bytes", 1024, "rate_per_second", 1, "burst", 3, "basic_username", "sender")), 201);
        String slug = s.path("slug").asText();
        String basic = "Basic " + Base64.getEncoder().encodeToString(("sender:" + SECRET).getBytes(StandardCharsets.UTF_8));
        // over the cap by Content-Length, and while streaming without one
        var big = post(slug, ("{\"x\":\"" + "a".repeat(2000) + "\"}").getBytes(StandardCharsets.UTF_8),
                Map.of("Authorization", basic));
        assertThat(big.statusCode()).isEqualTo(413);
        HttpRequest chunked = HttpRequest.newBuilder(URI.create(kernel.url() + "/api/v1/events/ingest/" + slug))
                .header("Authorization", basic).POST(HttpRequest.BodyPublishers.ofInputStream(() ->
                        new ByteArrayInputStream(new byte[5000]))).build();
        assertThat(HTTP.send(chunked, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(413);
        assertThat(post(slug, "not json".getBytes(StandardCharsets.UTF_8), Map.of("Authorization", basic)).statusCode())
                .isEqualTo(400);
        assertThat(post(slug, "not json".getBytes(StandardCharsets.UTF_8), Map.of()).statusCode())
                .as("authentication comes before parsing").isEqualTo(401);
        assertThat(post(slug, "{\"a\":1}".getBytes(StandardCharsets.UTF_8), Map.of("Authorization",
                "Basic " + Base64.getEncoder().encodeToString(("other:" + SECRET).getBytes(StandardCharsets.UTF_8))))
                .statusCode()).as("the wrong user").isEqualTo(401);
        // burst of 3 at 1/s: the bucket runs dry and answers 429 with Retry-After
        int limited = 0;
        String retryAfter = null;
        for (int i = 0; i < 6; i++) {
            var r = post(slug, ("{\"n\":" + i + "}").getBytes(StandardCharsets.UTF_8), Map.of("Authorization", basic));
            if (r.statusCode() == 429) {
                limited++;
                retryAfter = r.headers().firstValue("Retry-After").orElse(null);
            } else {
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            }
        }
        assertThat(limited).isPositive();
        assertThat(retryAfter).isNotNull().matches("[1-9][0-9]*");
        // a source may lower the cap, never raise it
        create(admin, source("raise-" + tenant, "generic-json", "basic", Map.of("max_body_bytes", 1 << 20)), 422);
    }

    @Test
    void rotationKeepsThePreviousSecretForTheOverlapOnly() throws Exception {
        JsonNode s = create(admin, source("rot-" + tenant, "registry", "static-header", null), 201);
        String slug = s.path("slug").asText();
        String next = "the-next-secret-0123456789";
        var rotated = kernel.send("PATCH", "/api/v1/event-sources/" + slug, admin, JSON.writeValueAsString(Map.of(
                "secret", next, "overlap_seconds", 600)), Map.of());
        assertThat(rotated.status()).as(rotated.body()).isEqualTo(200);
        assertThat(rotated.body()).doesNotContain(next).doesNotContain(SECRET);
        assertThat(rotated.json().path("previous_secret_valid_until").asText()).isNotEmpty();
        byte[] body = "{\"type\":\"SCANNING_COMPLETED\",\"occur_at\":1}".getBytes(StandardCharsets.UTF_8);
        assertThat(post(slug, body, Map.of("X-Svc-Token", SECRET)).statusCode()).as("old, in the overlap").isEqualTo(200);
        assertThat(post(slug, body, Map.of("X-Svc-Token", next)).statusCode()).as("new").isEqualTo(200);
        var hard = kernel.send("PATCH", "/api/v1/event-sources/" + slug, admin, JSON.writeValueAsString(Map.of(
                "secret", "a-third-secret-0123456789", "overlap_seconds", 0)), Map.of());
        assertThat(hard.status()).isEqualTo(200);
        assertThat(post(slug, "{\"type\":\"X\"}".getBytes(StandardCharsets.UTF_8), Map.of("X-Svc-Token", next))
                .statusCode()).as("no overlap: the old secret is refused at once").isEqualTo(401);
        var events = kernel.get("/api/v1/events?source=" + slug, operator).json().path("events");
        assertThat(events).hasSize(1);
        assertThat(events.get(0).path("summary").path("type").asText()).isEqualTo("SCANNING_COMPLETED");
        // the secret lives in the credential store, never in the database
        assertThat(jdbc.queryOne("SELECT count(*) FROM event_sources WHERE extras::text LIKE ? OR name LIKE ?",
                rs -> rs.getLong(1), "%" + SECRET + "%", "%" + SECRET + "%").orElseThrow()).isZero();
    }

    @Test
    void sourcesAreValidatedAndOnlyTenantAdminsWrite() throws Exception {
        create(operator, source("op-" + tenant, "generic-json", "basic", null), 403);
        var noSecret = source("nosecret-" + tenant, "generic-json", "basic", null);
        noSecret.remove("secret");
        create(admin, noSecret, 422);
        create(admin, source("kind-" + tenant, "nagios", "basic", null), 422);
        create(admin, source("strategy-" + tenant, "generic-json", "oauth", null), 422);
        create(admin, source("extras-" + tenant, "generic-json", "basic", Map.of("colour", "red")), 422);
        var shortSlug = source("slug-" + tenant, "generic-json", "basic", null);
        shortSlug.put("slug", "short");
        create(admin, shortSlug, 422);
        var weak = source("weak-" + tenant, "generic-json", "basic", null);
        weak.put("secret", "short");
        create(admin, weak, 422);
        var named = source("named-" + tenant, "generic-json", "basic", null);
        named.put("slug", "my-alertmanager-" + Math.abs(tenant.hashCode()));
        JsonNode ok = create(admin, named, 201);
        create(admin, named, 409);
        assertThat(kernel.get("/api/v1/event-sources", operator).json().path("event_sources")).hasSize(1);
        assertThat(kernel.send("DELETE", "/api/v1/event-sources/" + ok.path("slug").asText(), operator, null, Map.of())
                .status()).isEqualTo(403);
        assertThat(kernel.send("DELETE", "/api/v1/event-sources/" + ok.path("slug").asText(), admin, null, Map.of())
                .status()).isEqualTo(200);
        assertThat(post(ok.path("slug").asText(), "{}".getBytes(StandardCharsets.UTF_8), Map.of()).statusCode())
                .isEqualTo(404);
        assertThat(jdbc.queryOne("SELECT count(*) FROM audit_rows WHERE tenant_id = ? AND op_id LIKE 'svc.event_sources.%'",
                rs -> rs.getLong(1), tenant).orElseThrow()).as("create and delete are audited").isEqualTo(2);
    }

    @Test
    void theIngestRouteNeverAnswers5xxAndStoresNothingFromRefusedRequests() throws Exception {
        JsonNode s = create(admin, source("fuzz-" + tenant, "alertrouter", "static-header", null), 201);
        String slug = s.path("slug").asText();
        Random random = new Random(42);
        List<byte[]> bodies = new ArrayList<>(List.of("{\"a\":\"\\u0000\"}".getBytes(StandardCharsets.UTF_8),
                "{\"a\":\"\\ud800\"}".getBytes(StandardCharsets.UTF_8), "[".repeat(5000).getBytes(StandardCharsets.UTF_8),
                "{\"a\":1}{\"b\":2}".getBytes(StandardCharsets.UTF_8), "{\"a\":1e999999}".getBytes(StandardCharsets.UTF_8),
                new byte[0], "null".getBytes(StandardCharsets.UTF_8), "\"str\"".getBytes(StandardCharsets.UTF_8),
                "{\"status\":{\"nested\":[1,2,{}]},\"labels\":[1,2]}".getBytes(StandardCharsets.UTF_8),
                "{\"a\":1,\"a\":2}".getBytes(StandardCharsets.UTF_8)));
        for (int i = 0; i < 60; i++) {
            byte[] b = new byte[random.nextInt(300)];
            random.nextBytes(b);
            bodies.add(b);
        }
        int accepted = 0;
        for (byte[] b : bodies) {
            for (boolean authed : new boolean[] {false, true}) {
                var r = post(slug, b, authed ? Map.of("X-Svc-Token", SECRET) : Map.of());
                assertThat(r.statusCode()).as(new String(b, StandardCharsets.UTF_8)).isLessThan(500);
                if (!authed) {
                    assertThat(r.statusCode()).isEqualTo(401);
                } else if (r.statusCode() == 200 && !JSON.readTree(r.body()).path("duplicate").asBoolean()) {
                    accepted++;
                }
            }
        }
        assertThat(events(slug)).as("only accepted deliveries are stored").isEqualTo(accepted);
        assertThat(ingestAudits(slug)).isEqualTo(accepted);
    }

    @Test
    void theCliManagesSourcesAndReadsTheLog() throws Exception {
        Path cliHome = TempDirs.create("svc-events-cli");
        CliRunner cli = kernel.cli(cliHome, admin).env("SVC_EVENT_SOURCE_SECRET", SECRET);
        String slug = "cli-source-" + Math.abs(tenant.hashCode()) + "-abcdef";
        var add = cli.run("event-source", "add", slug, "--name", "cli-am", "--kind", "alertrouter",
                "--auth-strategy", "static-header", "--extras", "{\"rate_per_second\":50}");
        assertThat(add.exitCode()).as(add.toString()).isZero();
        assertThat(add.out()).contains(slug).contains("/api/v1/events/ingest/" + slug).doesNotContain(SECRET);
        var flag = cli.run("event-source", "add", "x", "--name", "n", "--kind", "alertrouter", "--auth-strategy",
                "basic", "--secret", SECRET);
        assertThat(flag.exitCode()).as("no secret as a flag value").isEqualTo(2);
        assertThat(cli.run("event-source", "list").out()).contains("cli-am").contains("alertrouter");
        assertThat(cli.run("event-source", "describe", slug, "--json").out()).contains("\"kind\" : \"alertrouter\"");
        assertThat(cli.run("event-source", "pause", slug).exitCode()).isZero();
        assertThat(post(slug, "{}".getBytes(StandardCharsets.UTF_8), Map.of("X-Svc-Token", SECRET)).statusCode())
                .isEqualTo(404);
        assertThat(cli.run("event-source", "resume", slug).exitCode()).isZero();
        var r = post(slug, "{\"status\":\"firing\",\"labels\":{\"team\":\"db\"}}".getBytes(StandardCharsets.UTF_8),
                Map.of("X-Svc-Token", SECRET));
        assertThat(r.statusCode()).isEqualTo(200);
        String id = JSON.readTree(r.body()).path("event_id").asText();
        var list = cli.run("events", "list", "--source", slug);
        assertThat(list.exitCode()).as(list.toString()).isZero();
        assertThat(list.out()).contains(id);
        assertThat(cli.run("events", "show", id).out()).contains("\"team\"").contains("firing");
        var update = cli.run("event-source", "update", slug, "--name", "cli-am-2");
        assertThat(update.exitCode()).as(update.toString()).isZero();
        assertThat(cli.run("event-source", "delete", slug).exitCode()).as("needs --confirm").isEqualTo(2);
        assertThat(cli.run("event-source", "delete", slug, "--confirm").exitCode()).isZero();
    }

    /**
     * The drain hands each accepted event to every subscriber exactly once after it acknowledged; a
     * failing subscriber is retried with backoff and holds up nobody else; what a subscriber writes on
     * the drain's connection commits with its acknowledgement.
     */
    @Test
    void theDrainDeliversEachEventOncePerSubscriberAndIsolatesFailures() throws Exception {
        String tag = Integer.toHexString(tenant.hashCode());
        jdbc.update("CREATE TABLE IF NOT EXISTS drain_effects (subscriber text, event_id uuid, PRIMARY KEY (subscriber, event_id))");
        java.util.concurrent.atomic.AtomicInteger flakyCalls = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.ConcurrentHashMap<UUID, Integer> seen = new java.util.concurrent.ConcurrentHashMap<>();
        EventDrain drain = kernel.kernel().eventDrain();
        String good = "good-" + tag;
        String flaky = "flaky-" + tag;
        String broken = "broken-" + tag;
        drain.subscribe(good, (c, e) -> {
            if (!e.tenantId().equals(tenant)) {
                return;
            }
            seen.merge(e.id(), 1, Integer::sum);
            Jdbc.update(c, "INSERT INTO drain_effects VALUES (?, ?)", good, e.id()); // a duplicate would violate the key
        });
        drain.subscribe(flaky, (c, e) -> {
            Jdbc.update(c, "INSERT INTO drain_effects VALUES (?, ?)", flaky, e.id());
            if (e.tenantId().equals(tenant) && flakyCalls.incrementAndGet() <= 2) {
                throw new IllegalStateException("flaky subscriber, attempt " + flakyCalls.get());
            }
        });
        drain.subscribe(broken, (c, e) -> {
            throw new IllegalStateException("always broken");
        });
        JsonNode s = create(admin, source("drain-" + tenant, "generic-json", "static-header", null), 201);
        String slug = s.path("slug").asText();
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            var r = post(slug, ("{\"n\":" + i + "}").getBytes(StandardCharsets.UTF_8), Map.of("X-Svc-Token", SECRET));
            assertThat(r.statusCode()).isEqualTo(200);
            ids.add(UUID.fromString(JSON.readTree(r.body()).path("event_id").asText()));
        }
        long deadline = System.nanoTime() + 15_000_000_000L;
        while (System.nanoTime() < deadline && (seen.size() < 5 || delivered(flaky, ids) < 5)) {
            Thread.sleep(100);
        }
        assertThat(seen.keySet()).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(seen.values()).as("once each").containsOnly(1);
        assertThat(delivered(good, ids)).isEqualTo(5);
        assertThat(delivered(flaky, ids)).as("retried until it succeeded").isEqualTo(5);
        assertThat(jdbc.queryOne("SELECT count(*) FROM drain_effects WHERE subscriber = ? AND event_id = ANY (?)",
                rs -> rs.getLong(1), flaky, ids.toArray(UUID[]::new)).orElseThrow())
                .as("a failed attempt's writes were rolled back with it").isEqualTo(5);
        assertThat(jdbc.queryOne("SELECT count(*) FROM event_deliveries WHERE subscriber = ? AND event_id = ANY (?) "
                        + "AND status = 'pending' AND attempts >= 1 AND last_error LIKE 'always broken%'",
                rs -> rs.getLong(1), broken, ids.toArray(UUID[]::new)).orElseThrow())
                .as("the broken subscriber is retried later and blocks nobody").isEqualTo(5);
        var dup = post(slug, "{\"n\":0}".getBytes(StandardCharsets.UTF_8), Map.of("X-Svc-Token", SECRET));
        assertThat(JSON.readTree(dup.body()).path("duplicate").asBoolean()).isTrue();
        Thread.sleep(500);
        assertThat(seen.values()).as("a redelivery fires nothing").containsOnly(1);
    }

    /**
     * The statement that removes acknowledged deliveries also lets the drain's transaction commit without waiting for
     * its flush: {@code synchronous_commit} is off after it, for that transaction only. (A delivery row for a
     * subscriber nobody drains, written and acknowledged in one transaction, so no drain sees it.)
     */
    @Test
    void acknowledgingABatchCommitsWithoutWaitingForTheFlush() {
        String setting = "SELECT current_setting('synchronous_commit')";
        EventDrain.Event event = new EventDrain.Event(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), "none",
                "generic", "test", JSON.createObjectNode(), Instant.now());
        jdbc.inTransaction(c -> {
            Jdbc.update(c, "INSERT INTO events (id, tenant_id, source_id, source_slug, kind, delivery_id, envelope, "
                    + "audit_id) VALUES (?, ?, ?, 'none', 'generic', 'd-1', '{}', ?)", event.id(), event.tenantId(),
                    event.sourceId(), UUID.randomUUID());
            Jdbc.update(c, "INSERT INTO event_deliveries (subscriber, event_id, tenant_id) VALUES ('nobody', ?, ?)",
                    event.id(), event.tenantId());
            assertThat(Jdbc.query(c, setting, rs -> rs.getString(1))).containsExactly("on");
            EventStore.delivered(c, List.of(new EventStore.Due("nobody", event, 0)));
            assertThat(Jdbc.query(c, setting, rs -> rs.getString(1))).containsExactly("off");
            assertThat(Jdbc.query(c, "SELECT 1 FROM event_deliveries WHERE event_id = ?", rs -> 1, event.id()))
                    .as("acknowledged: the row is gone").isEmpty();
            Jdbc.update(c, "DELETE FROM events WHERE id = ?", event.id());
            return null;
        });
        assertThat(jdbc.queryOne(setting, rs -> rs.getString(1))).as("set for that transaction only").contains("on");
    }

    /** How many of these events the subscriber has acknowledged: their delivery rows are gone (V060). */
    private long delivered(String subscriber, List<UUID> ids) {
        return jdbc.queryOne("SELECT count(*) FROM unnest(?::uuid[]) AS i(id) WHERE NOT EXISTS (SELECT 1 FROM "
                + "event_deliveries d WHERE d.subscriber = ? AND d.event_id = i.id)", rs -> rs.getLong(1),
                ids.toArray(UUID[]::new), subscriber).orElseThrow();
    }

    /**
     * A replica's ingest queue full (every committer held on a delivery id an open transaction also inserts, then
     * {@code EventCommits.QUEUE} deliveries waiting behind them): the next delivery is refused at once with 429,
     * {@code rate_limited} and Retry-After, and nothing it carried is stored; every queued one is written and
     * accepted once the committers go on.
     */
    @Test
    void aFullIngestQueueAnswers429AtOnceAndLosesNothingItAccepted() throws Exception {
        JsonNode s = create(admin, source("full-" + tenant, "generic-json", "hmac-sha256",
                Map.of("rate_per_second", 100_000, "burst", 100_000)), 201);
        String slug = s.path("slug").asText();
        UUID sourceId = UUID.fromString(s.path("id").asText());
        List<java.sql.Connection> gates = new ArrayList<>();
        List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        try {
            for (int c = 0; c < EventCommits.COMMITTERS; c++) {
                java.sql.Connection gate = kernel.kernel().database().dataSource().getConnection();
                gates.add(gate);
                gate.setAutoCommit(false);
                Jdbc.update(gate, "INSERT INTO events (id, tenant_id, source_id, source_slug, kind, delivery_id, "
                        + "envelope, audit_id) VALUES (?, ?, ?, ?, 'generic-json', ?, '{}'::jsonb, ?)", UUID.randomUUID(),
                        tenant, sourceId, slug, "id:held-" + c, UUID.randomUUID());
                answers.add(postAsync(slug, "held-" + c));
                int held = c + 1;
                awaitTrue(() -> lockWaits() >= held, "committer " + held + " waits on its gate");
            }
            for (int i = 0; i < EventCommits.QUEUE; i++) {
                answers.add(postAsync(slug, "queued-" + i));
            }
            awaitTrue(() -> ingestQueue() == EventCommits.QUEUE, "the queue is full");

            long t0 = System.nanoTime();
            HttpResponse<String> refused = postAsync(slug, "refused").get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(429);
            assertThat((System.nanoTime() - t0) / 1_000_000).as("refused without waiting").isLessThan(5_000);
            assertThat(JSON.readTree(refused.body()).path("error").asText()).isEqualTo("rate_limited");
            assertThat(refused.headers().firstValue("Retry-After")).contains("1");
        } finally {
            for (java.sql.Connection gate : gates) {
                gate.rollback();
                gate.close();
            }
        }
        for (var answer : answers) {
            HttpResponse<String> r = answer.get(60, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            assertThat(JSON.readTree(r.body()).path("status").asText()).isEqualTo("accepted");
        }
        assertThat(events(slug)).isEqualTo(EventCommits.COMMITTERS + EventCommits.QUEUE);
        assertThat(ingestAudits(slug)).isEqualTo(EventCommits.COMMITTERS + EventCommits.QUEUE);
        assertThat(jdbc.queryOne("SELECT count(*) FROM events WHERE source_slug = ? AND delivery_id = 'refused'",
                rs -> rs.getLong(1), slug).orElseThrow()).as("the refused delivery left nothing").isZero();
    }

    private static java.util.concurrent.CompletableFuture<HttpResponse<String>> postAsync(String slug, String id)
            throws Exception {
        byte[] body = ("{\"delivery\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8);
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(kernel.url() + "/api/v1/events/ingest/" + slug))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).header("Content-Type", "application/json");
        signed(SECRET, id, body).forEach(b::header);
        return HTTP.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static long lockWaits() {
        return jdbc.queryOne("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'",
                rs -> rs.getLong(1)).orElseThrow();
    }

    /** The {@code svc_events_ingest_queue} gauge at /metrics. */
    private static double ingestQueue() {
        return kernel.get("/metrics", null).body().lines().filter(l -> l.startsWith("svc_events_ingest_queue"))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).findFirst().orElse(-1);
    }

    private static void awaitTrue(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
