package dev.backplane.kernel.notifications;

import static dev.backplane.kernel.sensors.SensorsIT.ok;
import static dev.backplane.kernel.sensors.SensorsIT.poll;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.credentials.FileKvStore;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.LoopbackSmtp;
import dev.backplane.kernel.testing.LoopbackTarget;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TestPlugins;
import jakarta.mail.Address;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * Approval notifications end to end: a real kernel on PostgreSQL, a real SMTP server (GreenMail) and a loopback
 * webhook receiver that verifies the Standard Webhooks signature itself (its own HMAC, not the kernel's). A parked
 * call, its approval, its rejection and its expiry are mailed and posted with the link to the request's page and
 * without the canary secret param; a receiver that is down or answers 500 is retried with backoff and gets the
 * message once when it is back, also from a kernel started after the one that took the call; bad settings are
 * refused with their field; a recipient the tenant's mail-recipient policy refuses gets nothing, audited.
 */
class ApprovalNotificationsIT extends PerTestTenant {

    private static final String CANARY = "canary-" + UUID.randomUUID();
    private static final String PASSWORD = "ntf-pw-" + UUID.randomUUID();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static LoopbackTarget target;
    private static LoopbackSmtp smtp;

    @BeforeKernel
    static void start(KernelSetup setup) {
        target = LoopbackTarget.basicAuthItems(setup, "svc", PASSWORD, x -> { });
        setup.plugin(TestPlugins.connector("ntf", "1.x").product("ntf").ranges("*").operations(6).httpProbe(false));
        smtp = LoopbackSmtp.start().serving(setup);
        setup.setting("SVC_NOTIFICATIONS_RETRY_INITIAL_SECONDS", "1")
                .setting("SVC_NOTIFICATIONS_RETRY_MAX_SECONDS", "2")
                .setting("SVC_NOTIFICATIONS_MAX_ATTEMPTS", "6");
    }

    /** A webhook receiver on loopback: answers each request with {@code answer(n)} (n from 1), verifies and records it. */
    static final class Receiver implements AutoCloseable {

        record Hit(String id, String body, boolean verified, int answered) {
            JsonNode json() {
                try {
                    return JSON.readTree(body);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }

        final List<Hit> hits = new CopyOnWriteArrayList<>();
        private final byte[] key;
        private final AtomicInteger seen = new AtomicInteger();
        volatile IntUnaryOperator answer = n -> 200;
        private volatile HttpServer server;
        private final int port;

        /** @param secret the whsec_ secret to verify with, or null to expect no signature */
        Receiver(String secret, int port) {
            this.key = secret == null ? null : Base64.getDecoder().decode(secret.substring("whsec_".length()));
            this.port = start(port);
        }

        Receiver(String secret) {
            this(secret, 0);
        }

        private int start(int at) {
            try {
                HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), at), 0);
                s.createContext("/", this::handle);
                s.start();
                server = s;
                return s.getAddress().getPort();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Down: connections to its port are refused. */
        void stop() {
            server.stop(0);
        }

        /** Back on the same port. */
        void restart() {
            start(port);
        }

        String url() {
            return "http://127.0.0.1:" + port + "/hooks/approvals";
        }

        private void handle(HttpExchange x) throws IOException {
            byte[] body = x.getRequestBody().readAllBytes();
            String id = x.getRequestHeaders().getFirst("webhook-id");
            int status = answer.applyAsInt(seen.incrementAndGet());
            hits.add(new Hit(id, new String(body, StandardCharsets.UTF_8), verify(x, id, body), status));
            x.sendResponseHeaders(status, -1);
            x.close();
        }

        private boolean verify(HttpExchange x, String id, byte[] body) {
            String ts = x.getRequestHeaders().getFirst("webhook-timestamp");
            String sig = x.getRequestHeaders().getFirst("webhook-signature");
            if (key == null || id == null || ts == null || sig == null
                    || Math.abs(System.currentTimeMillis() / 1000 - Long.parseLong(ts)) > 300) {
                return false;
            }
            try {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(key, "HmacSHA256"));
                mac.update((id + "." + ts + ".").getBytes(StandardCharsets.UTF_8));
                String expected = "v1," + Base64.getEncoder().encodeToString(mac.doFinal(body));
                return Arrays.asList(sig.split(" ")).contains(expected);
            } catch (java.security.GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }

        /** The hits answered 2xx whose body names {@code approval} and contains {@code type} ({@code approval.parked} ...). */
        List<Hit> delivered(String type, String approval) {
            return hits.stream().filter(h -> h.answered() / 100 == 2 && h.body().contains(approval)
                    && h.body().contains(type)).toList();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    private static String newSecret() {
        byte[] key = new byte[24];
        new SecureRandom().nextBytes(key);
        return "whsec_" + Base64.getEncoder().encodeToString(key);
    }

    /** Stores the webhook's signing secret at the tenant's secret_ref and returns the ref. */
    private String storeSecret(String secret) throws IOException {
        String ref = "tenants/" + tenant + "/approval-webhook";
        new FileKvStore(kernel.dataDir().resolve("kv")).write(ref, Map.of("secret", secret));
        return ref;
    }

    private void setUp(String targetName) {
        target.register(kernel, admin, targetName, "ntf");
        kernel.enableConnector(admin, "ntf-1.x");
        assertThat(kernel.patch("/api/v1/connectors/ntf-1.x/operations/ntf.item5.delete", admin,
                Map.of("is_enabled", true, "safety_level", "caution", "requires_approval", true)).status()).isEqualTo(200);
    }

    private void settings(Map<String, Object> body) {
        ok(kernel.put("/api/v1/tenants/current/approval-notifications", admin, body), 200);
    }

    /** Parks a call with the canary as a param; returns the approval request's id. */
    private String park(String targetName, String name) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("name", name);
        params.put("password", CANARY);
        var r = kernel.post("/api/v1/operations/call", operator, Map.of("connector_id", "ntf-1.x", "op_id",
                "ntf.item5.delete", "target", targetName, "params", params, "work_ref", "CHG-45"));
        JsonNode parked = ok(r, 200);
        assertThat(parked.path("status").asText()).as(parked.toString()).isEqualTo("awaiting_approval");
        return parked.path("extras").path("approval_request_id").asText();
    }

    private static List<MimeMessage> mailAbout(String address, String subject) {
        return smtp.to(address).stream().filter(m -> {
            try {
                return m.getSubject().startsWith(subject);
            } catch (MessagingException e) {
                throw new AssertionError(e);
            }
        }).toList();
    }

    private JsonNode notifyAudit(String query) {
        return ok(kernel.get("/api/v1/audit?op_id=svc.approval.notify&limit=200&" + query, admin), 200);
    }

    private List<String> outbox(String approval) {
        return kernel.jdbc().query("SELECT channel || ':' || event || ':' || status FROM notification_outbox "
                + "WHERE approval_id = ?::uuid ORDER BY created_at, channel", rs -> rs.getString(1), approval);
    }

    private String link(String approval) {
        return kernel.url() + "/ui/approvals/" + approval;
    }

    @Test
    void aParkedCallItsApprovalAndItsRejectionAreMailedAndPostedSignedWithoutItsParams() throws Exception {
        setUp("web");
        ok(kernel.put("/api/v1/tenants/current/mail-recipient-policy", admin, Map.of("allowlist", "example.com")), 200);
        String approver = "approvers-" + tenant + "@example.com";
        String secret = newSecret();
        try (Receiver receiver = new Receiver(secret)) {
            settings(Map.of("mail_recipients", approver, "webhook_url", receiver.url(), "webhook_format", "json",
                    "webhook_secret_ref", storeSecret(secret)));
            String id = park("web", "victim");

            Receiver.Hit hit = poll(() -> receiver.delivered("approval.parked", id), l -> !l.isEmpty(),
                    Duration.ofSeconds(30), "the parked call's webhook").getFirst();
            assertThat(hit.verified()).as("the Standard Webhooks signature verifies").isTrue();
            assertThat(hit.body()).doesNotContain(CANARY).doesNotContain("victim");
            JsonNode data = hit.json().path("data");
            assertThat(hit.json().path("type").asText()).isEqualTo("approval.parked");
            assertThat(data.path("approval_id").asText()).isEqualTo(id);
            assertThat(data.path("url").asText()).isEqualTo(link(id));
            assertThat(data.path("status").asText()).isEqualTo("pending");
            assertThat(data.path("requester").asText()).isEqualTo("op-" + tenant);
            assertThat(data.path("connector_id").asText()).isEqualTo("ntf-1.x");
            assertThat(data.path("op_id").asText()).isEqualTo("ntf.item5.delete");
            assertThat(data.path("target").asText()).isEqualTo("web");
            assertThat(data.path("safety_level").asText()).isEqualTo("caution");
            assertThat(data.path("work_ref").asText()).isEqualTo("CHG-45");
            assertThat(data.path("expires_at").asText()).isNotEmpty();
            assertThat(data.has("params")).isFalse();
            assertThat(hit.id()).as("webhook-id is the outbox row").isNotBlank();

            MimeMessage mail = poll(() -> mailAbout(approver, "[svc] Approval needed"), l -> !l.isEmpty(),
                    Duration.ofSeconds(30), "the parked call's mail").getFirst();
            assertThat(mail.getSubject()).isEqualTo("[svc] Approval needed: ntf-1.x/ntf.item5.delete on web");
            String body = GreenMailUtil.getBody(mail);
            assertThat(body).contains(link(id)).contains("CHG-45").contains("caution").contains("op-" + tenant)
                    .doesNotContain(CANARY).doesNotContain("victim");

            // approved by a second admin: told too
            ok(kernel.post("/api/v1/approvals/" + id + "/approve", admin2, Map.of("reason", "ticket checked")), 200);
            Receiver.Hit approved = poll(() -> receiver.delivered("approval.approved", id), l -> !l.isEmpty(),
                    Duration.ofSeconds(30), "the approval's webhook").getFirst();
            assertThat(approved.verified()).isTrue();
            assertThat(approved.json().path("data").path("decided_by").asText()).isEqualTo("admin2-" + tenant);
            assertThat(approved.json().path("data").path("reason").asText()).isEqualTo("ticket checked");
            assertThat(approved.body()).doesNotContain(CANARY);
            poll(() -> mailAbout(approver, "[svc] Approved"), l -> !l.isEmpty(), Duration.ofSeconds(30),
                    "the approval's mail");

            // another, rejected
            String rejected = park("web", "keep");
            ok(kernel.post("/api/v1/approvals/" + rejected + "/reject", admin, Map.of("reason", "not today")), 200);
            Receiver.Hit no = poll(() -> receiver.delivered("approval.rejected", rejected), l -> !l.isEmpty(),
                    Duration.ofSeconds(30), "the rejection's webhook").getFirst();
            assertThat(no.verified()).isTrue();
            assertThat(no.json().path("data").path("status").asText()).isEqualTo("rejected");
            poll(() -> mailAbout(approver, "[svc] Rejected"), l -> !l.isEmpty(), Duration.ofSeconds(30),
                    "the rejection's mail");

            // every message once, every row delivered, every delivery audited
            poll(() -> outbox(id), rows -> rows.stream().allMatch(r -> r.endsWith(":delivered")) && rows.size() == 4,
                    Duration.ofSeconds(30), "the request's outbox rows delivered");
            assertThat(outbox(id)).containsExactly("mail:parked:delivered", "webhook:parked:delivered",
                    "mail:approved:delivered", "webhook:approved:delivered");
            assertThat(receiver.hits).extracting(Receiver.Hit::id).doesNotHaveDuplicates();
            assertThat(mailAbout(approver, "[svc] Approval needed")).hasSize(2);
            JsonNode audited = poll(() -> notifyAudit("result_status=ok"), a -> a.path("rows").size() >= 6,
                    Duration.ofSeconds(30), "the deliveries' audit rows");
            assertThat(audited.toString()).contains("\"channel\":\"webhook\"").contains("\"channel\":\"mail\"")
                    .contains("svc-notifications").doesNotContain(CANARY);
        }
    }

    @Test
    void anExpiryIsPostedInSlackFormatAndTeamsGetsAMessageCard() throws Exception {
        setUp("db");
        try (Receiver slack = new Receiver(null); Receiver teams = new Receiver(null)) {
            settings(Map.of("webhook_url", slack.url(), "webhook_format", "slack"));
            String id = park("db", "old");
            poll(() -> slack.delivered("Approval needed", id), l -> !l.isEmpty(), Duration.ofSeconds(30),
                    "the parked call in Slack");
            kernel.jdbc().update("UPDATE governance_approvals SET expires_at = now() - interval '1 second' "
                    + "WHERE id = ?::uuid", id);
            assertThat(ok(kernel.get("/api/v1/approvals/" + id, operator), 200).path("status").asText())
                    .isEqualTo("expired");
            JsonNode msg = poll(() -> slack.delivered("Expired", id), l -> !l.isEmpty(), Duration.ofSeconds(30),
                    "the expiry in Slack").getFirst().json();
            assertThat(msg.path("text").asText()).contains("Expired without a decision: ntf-1.x/ntf.item5.delete on db")
                    .contains("<" + link(id) + "|Open in svc>");
            assertThat(msg.path("blocks").get(0).path("type").asText()).isEqualTo("section");
            assertThat(msg.toString()).contains("\"url\":\"" + link(id) + "\"").doesNotContain(CANARY);
            assertThat(slack.hits).allSatisfy(h -> assertThat(h.verified()).as("no secret: unsigned").isFalse());

            // Teams, and decisions left out: a rejection is not sent, an expiry is
            settings(Map.of("webhook_url", teams.url(), "webhook_format", "teams", "events", List.of("expired")));
            String rejected = park("db", "a");
            String expiring = park("db", "b");
            ok(kernel.post("/api/v1/approvals/" + rejected + "/reject", admin, Map.of()), 200);
            kernel.jdbc().update("UPDATE governance_approvals SET expires_at = now() - interval '1 second' "
                    + "WHERE id = ?::uuid", expiring);
            ok(kernel.get("/api/v1/approvals?status=pending", operator), 200);
            JsonNode card = poll(() -> teams.delivered("Expired", expiring), l -> !l.isEmpty(), Duration.ofSeconds(30),
                    "the expiry in Teams").getFirst().json();
            assertThat(card.path("@type").asText()).isEqualTo("MessageCard");
            assertThat(card.path("potentialAction").get(0).path("targets").get(0).path("uri").asText())
                    .isEqualTo(link(expiring));
            assertThat(card.path("sections").get(0).path("facts").toString()).contains("CHG-45").contains("caution");
            // its own outbox row, delivered on its own schedule: not necessarily before the other call's expiry
            poll(() -> outbox(rejected), rows -> rows.equals(List.of("webhook:parked:delivered")),
                    Duration.ofSeconds(30), "parked is always sent, the rejection was left out");
        }
    }

    @Test
    void aReceiverThatIsDownIsRetriedWithBackoffAndGetsTheMessageOnceWhenItIsBack() throws Exception {
        setUp("api");
        String secret = newSecret();
        try (Receiver receiver = new Receiver(secret)) {
            settings(Map.of("webhook_url", receiver.url(), "webhook_secret_ref", storeSecret(secret)));
            receiver.stop(); // connection refused
            String id = park("api", "x");
            poll(() -> kernel.jdbc().query("SELECT attempts FROM notification_outbox WHERE approval_id = ?::uuid",
                    rs -> rs.getInt(1), id), a -> !a.isEmpty() && a.getFirst() >= 1, Duration.ofSeconds(30),
                    "a first attempt on the refused port");
            JsonNode failed = poll(() -> notifyAudit("result_status=error"), a -> a.toString().contains(id),
                    Duration.ofSeconds(30), "the failed attempt's audit row");
            assertThat(failed.toString()).contains("delivery_failed").contains("could not be reached")
                    .contains("retry_at");
            // back, answering 500 once, then 200
            receiver.answer = n -> n == 1 ? 500 : 204;
            receiver.restart();
            poll(() -> outbox(id), rows -> rows.equals(List.of("webhook:parked:delivered")), Duration.ofSeconds(30),
                    "delivered once the receiver is back");
            assertThat(receiver.hits).extracting(Receiver.Hit::answered).containsExactly(500, 204);
            assertThat(receiver.hits).extracting(Receiver.Hit::id).as("one message, retried under its id")
                    .containsOnly(receiver.hits.getFirst().id());
            assertThat(receiver.hits).allSatisfy(h -> assertThat(h.verified()).isTrue());
            Thread.sleep(3000);
            assertThat(receiver.delivered("approval.parked", id)).as("delivered once, never again").hasSize(1);
            int attempts = kernel.jdbc().queryOne("SELECT attempts FROM notification_outbox WHERE approval_id = ?::uuid",
                    rs -> rs.getInt(1), id).orElseThrow();
            assertThat(attempts).isGreaterThanOrEqualTo(3);
            assertThat(notifyAudit("result_status=error").toString()).contains("answered HTTP 500");
            assertThat(notifyAudit("result_status=ok").toString()).contains(id);
        }
    }

    @Test
    void aReceiverThatNeverAnswers2xxIsGivenUpOnAfterMaxAttemptsAndTheRowKeptAsFailed() throws Exception {
        setUp("dead");
        try (Receiver receiver = new Receiver(null)) {
            receiver.answer = n -> 503;
            settings(Map.of("webhook_url", receiver.url(), "webhook_format", "slack"));
            String id = park("dead", "x");
            poll(() -> outbox(id), rows -> rows.equals(List.of("webhook:parked:failed")), Duration.ofSeconds(60),
                    "given up");
            assertThat(receiver.hits).hasSize(6);
            JsonNode gaveUp = poll(() -> notifyAudit("result_status=error"),
                    a -> a.toString().contains("notification_failed"), Duration.ofSeconds(30), "the give-up's audit row");
            assertThat(gaveUp.toString()).contains(id).contains("answered HTTP 503");
            assertThat(kernel.jdbc().queryOne("SELECT last_error FROM notification_outbox WHERE approval_id = ?::uuid",
                    rs -> rs.getString(1), id).orElseThrow()).contains("503");
        }
    }

    @Test
    void aMessageStillWaitingWhenTheKernelStopsIsDeliveredByTheNextKernel() throws Exception {
        setUp("restart");
        String secret = newSecret();
        try (Receiver receiver = new Receiver(secret)) {
            receiver.answer = n -> 500;
            settings(Map.of("webhook_url", receiver.url(), "webhook_secret_ref", storeSecret(secret)));
            String id = park("restart", "x");
            poll(() -> receiver.hits, h -> !h.isEmpty(), Duration.ofSeconds(30), "a first attempt");
            kernel.restart(() -> receiver.answer = n -> 200);
            poll(() -> outbox(id), rows -> rows.equals(List.of("webhook:parked:delivered")), Duration.ofSeconds(60),
                    "delivered by the new kernel");
            assertThat(receiver.delivered("approval.parked", id)).hasSize(1);
            assertThat(receiver.delivered("approval.parked", id).getFirst().verified()).isTrue();
            assertThat(receiver.delivered("approval.parked", id).getFirst().json().path("data").path("url").asText())
                    .as("the link names the kernel that sent it").isEqualTo(link(id));
        }
    }

    @Test
    void aRecipientTheTenantsPolicyRefusesGetsNoMailAndTheRefusalIsAudited() throws Exception {
        setUp("mailonly");
        ok(kernel.put("/api/v1/tenants/current/mail-recipient-policy", admin, Map.of("allowlist", "example.com")), 200);
        String allowed = "ok-" + tenant + "@example.com";
        String refused = "boss-" + tenant + "@other.org";
        settings(Map.of("mail_recipients", allowed + ", " + refused));
        String id = park("mailonly", "x");
        MimeMessage mail = poll(() -> smtp.to(allowed), l -> !l.isEmpty(), Duration.ofSeconds(30), "the allowed mail")
                .getFirst();
        assertThat(Arrays.stream(mail.getAllRecipients()).map(Address::toString)).containsExactly(allowed);
        assertThat(smtp.to(refused)).isEmpty();
        JsonNode denied = poll(() -> notifyAudit("result_status=denied"), a -> a.path("rows").size() >= 1,
                Duration.ofSeconds(30), "the refusal's audit row");
        JsonNode row = denied.path("rows").get(0);
        assertThat(row.path("error_code").asText()).isEqualTo("recipient_not_allowed");
        assertThat(row.path("extras").path("recipient").asText()).isEqualTo(refused);
        assertThat(row.path("extras").path("approval_request_id").asText()).isEqualTo(id);
        assertThat(row.path("principal").asText()).isEqualTo("svc-notifications");

        // a policy that refuses everyone: nothing is sent, the row ends failed
        ok(kernel.put("/api/v1/tenants/current/mail-recipient-policy", admin, Map.of("allowlist", "")), 200);
        String none = park("mailonly", "y");
        poll(() -> outbox(none), rows -> rows.equals(List.of("mail:parked:failed")), Duration.ofSeconds(30),
                "nothing allowed");
        assertThat(smtp.to(allowed)).hasSize(1);
    }

    @Test
    void settingsAreTenantAdminsAndBadInputIsRefusedWithItsField() throws Exception {
        String path = "/api/v1/tenants/current/approval-notifications";
        JsonNode unset = ok(kernel.get(path, admin), 200);
        assertThat(unset.path("configured").asBoolean()).isFalse();
        assertThat(unset.path("events")).extracting(JsonNode::asText).containsExactly("parked", "decided", "expired");

        String ref = "tenants/" + tenant + "/approval-webhook";
        Map<String, Object> good = Map.of("mail_recipients", "A@Example.com, b@example.com,a@example.com",
                "webhook_url", "http://127.0.0.1:9/hook?token=t0ps3cret", "webhook_format", "json",
                "webhook_secret_ref", ref, "events", List.of("decided"));
        JsonNode set = ok(kernel.put(path, admin, good), 200);
        assertThat(set.path("configured").asBoolean()).isTrue();
        assertThat(set.path("enabled").asBoolean()).isTrue();
        assertThat(set.path("mail_recipients").asText()).isEqualTo("a@example.com,b@example.com");
        assertThat(set.path("events")).extracting(JsonNode::asText).containsExactly("parked", "decided");
        assertThat(set.path("webhook_secret_ref").asText()).isEqualTo(ref);
        assertThat(set.path("updated_by").asText()).isEqualTo("admin-" + tenant);
        assertThat(ok(kernel.get(path, admin), 200)).isEqualTo(set);

        // audited like every governance change, the webhook URL (it may carry a token) only as its digest
        List<String> trail = kernel.jdbc().query("SELECT extras->>'change' FROM audit_rows WHERE tenant_id = ? AND "
                + "op_id = 'svc.governance.PUT " + path + "'", rs -> rs.getString(1), tenant);
        assertThat(trail).hasSize(1);
        assertThat(trail.getFirst()).contains("b@example.com").contains("webhook_url").doesNotContain("t0ps3cret");

        String ro = issuer.token("ro-" + tenant, tenant, "read_only");
        for (String token : List.of(ro, operator)) {
            assertThat(kernel.put(path, token, good).status()).isEqualTo(403);
            assertThat(kernel.get(path, token).status()).as("a chat webhook URL carries its token").isEqualTo(403);
            assertThat(kernel.delete(path, token).status()).isEqualTo(403);
        }

        record Bad(Map<String, Object> body, String code, String field) {
        }
        List<Bad> bad = List.of(
                new Bad(Map.of("webhook_url", "ftp://127.0.0.1/x", "webhook_format", "slack"), "invalid_request",
                        "webhook_url"),
                new Bad(Map.of("webhook_url", "not a url", "webhook_format", "slack"), "invalid_request", "webhook_url"),
                new Bad(Map.of("webhook_url", "http://user:pw@127.0.0.1/x", "webhook_format", "slack"),
                        "invalid_request", "webhook_url"),
                new Bad(Map.of("webhook_url", "http://169.254.169.254/latest", "webhook_format", "slack"),
                        "ssrf_refused", "webhook_url"),
                new Bad(Map.of("webhook_url", "http://127.0.0.1/x", "webhook_format", "xml"), "invalid_request",
                        "webhook_format"),
                new Bad(Map.of("webhook_url", "http://127.0.0.1/x"), "invalid_request", "webhook_secret_ref"),
                new Bad(Map.of("mail_recipients", "ops@example.com", "webhook_secret_ref", ref), "invalid_request",
                        "webhook_secret_ref"),
                new Bad(Map.of("mail_recipients", "Ops <ops@example.com>"), "invalid_request", "mail_recipients"),
                new Bad(Map.of("mail_recipients", "ops@example.com", "events", List.of("approved")), "invalid_request",
                        "events"),
                new Bad(Map.of("enabled", true), "invalid_request", "mail_recipients"),
                new Bad(Map.of("webhook_url", "http://127.0.0.1/x", "webhook_secret_ref",
                        "tenants/" + UUID.randomUUID() + "/approval-webhook"), "secret_ref_outside_tenant_scope", null));
        for (Bad b : bad) {
            var r = kernel.put(path, admin, b.body());
            assertThat(r.status()).as(b + " -> " + r.body()).isEqualTo(422);
            assertThat(r.json().path("error").asText()).as(r.body()).isEqualTo(b.code());
            if (b.field() != null) {
                assertThat(r.body()).as(b.toString()).contains("\"field\":\"" + b.field() + "\"");
            }
        }
        var unknown = kernel.send("PUT", path, admin, "{\"mail_recipients\": \"ops@example.com\", \"webhok_url\": \"x\"}",
                Map.of());
        assertThat(unknown.status()).as(unknown.body()).isEqualTo(422);
        assertThat(unknown.json().path("error").asText()).isEqualTo("invalid_request");
        assertThat(unknown.body()).contains("webhok_url");
        var wrongType = kernel.send("PUT", path, admin, "{\"enabled\": \"yes please\"}", Map.of());
        assertThat(wrongType.status()).as(wrongType.body()).isBetween(400, 422);
        assertThat(ok(kernel.get(path, admin), 200)).as("nothing bad was stored").isEqualTo(set);

        JsonNode cleared = ok(kernel.delete(path, admin), 200);
        assertThat(cleared.path("configured").asBoolean()).isFalse();
        assertThat(ok(kernel.get(path, admin), 200).path("configured").asBoolean()).isFalse();
    }

    @Test
    void theCliShowsSetsAndClearsTheSettings() {
        var cli = kernel.cli(admin);
        var unset = cli.run("tenants", "approval-notifications", "show");
        assertThat(unset.exitCode()).as(unset.toString()).isZero();
        assertThat(unset.out()).contains("unset (nothing is sent");
        var set = cli.run("tenants", "approval-notifications", "set", "--mail-recipients", "ops@example.com",
                "--webhook-url", "http://127.0.0.1:9/hook", "--format", "teams", "--events", "decided");
        assertThat(set.exitCode()).as(set.toString()).isZero();
        assertThat(set.out()).contains("enabled").contains("ops@example.com").contains("http://127.0.0.1:9/hook (teams)")
                .contains("- (unsigned)").contains("parked,decided");
        var json = cli.run("tenants", "approval-notifications", "show", "--json");
        assertThat(json.out()).contains("\"webhook_format\" : \"teams\"").contains("\"configured\" : true");
        var bad = cli.run("tenants", "approval-notifications", "set", "--webhook-url", "http://127.0.0.1:9/hook",
                "--format", "xml");
        assertThat(bad.exitCode()).as(bad.toString()).isNotZero();
        assertThat(bad.err()).contains("webhook_format");
        var usage = cli.run("tenants", "approval-notifications", "set", "--format", "slack");
        assertThat(usage.exitCode()).as(usage.toString()).isEqualTo(2);
        var asOperator = kernel.cli(operator).run("tenants", "approval-notifications", "show");
        assertThat(asOperator.exitCode()).as(asOperator.toString()).isNotZero();
        var cleared = cli.run("tenants", "approval-notifications", "clear");
        assertThat(cleared.exitCode()).as(cleared.toString()).isZero();
        assertThat(cleared.out()).contains("unset");
    }

    /**
     * Claims never overlap: eight threads claim the outbox concurrently (with the kernel's own delivery job claiming
     * too, and cancelling what it takes, since this tenant has no settings) and every row is taken exactly once.
     */
    @Test
    void concurrentClaimsTakeEachDueRowOnce() throws Exception {
        UUID approval = UUID.randomUUID();
        int rows = 400;
        kernel.jdbc().inTransaction(c -> {
            for (int i = 0; i < rows; i++) {
                NotificationStore.enqueue(c, tenant, approval, "parked", "webhook", Map.of("n", i));
            }
            return null;
        });
        NotificationStore store = new NotificationStore(kernel.jdbc());
        List<UUID> claimed = new CopyOnWriteArrayList<>();
        List<Thread> threads = new java.util.ArrayList<>();
        for (int t = 0; t < 8; t++) {
            threads.add(Thread.ofPlatform().start(() -> {
                List<Outbox> got;
                do {
                    got = store.claimDue(5, Duration.ofMinutes(5));
                    got.forEach(o -> claimed.add(o.id()));
                } while (!got.isEmpty());
            }));
        }
        for (Thread t : threads) {
            t.join(60_000);
        }
        assertThat(claimed).as("no row claimed twice").doesNotHaveDuplicates();
        List<String> taken = poll(() -> kernel.jdbc().query("SELECT id::text || ' ' || status || ' ' || attempts "
                + "FROM notification_outbox WHERE approval_id = ?", rs -> rs.getString(1), approval),
                l -> l.stream().filter(r -> r.contains(" pending ")).count() == claimed.size(), Duration.ofSeconds(30),
                "the kernel's job done with what it took");
        assertThat(taken).hasSize(rows);
        assertThat(taken).as("each row attempted once").allSatisfy(r -> assertThat(r).endsWith(" 1"));
        for (String r : taken) {
            UUID id = UUID.fromString(r.substring(0, 36));
            assertThat(r.contains(" pending ")).as("taken by the test's threads xor the kernel: " + r)
                    .isEqualTo(claimed.contains(id));
        }
    }
}
