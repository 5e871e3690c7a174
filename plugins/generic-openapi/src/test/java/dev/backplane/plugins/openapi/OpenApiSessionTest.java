package dev.backplane.plugins.openapi;

import static dev.backplane.plugins.openapi.Specs.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.plugins.openapi.FakeVendor.Reply;
import dev.backplane.plugin.api.Redaction;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.Fingerprint;
import dev.backplane.plugin.api.HttpPreview;
import dev.backplane.plugin.api.OperationResult;
import dev.backplane.plugin.api.ResultKind;
import dev.backplane.plugin.api.TargetSpec;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Calls against a fake vendor over real loopback sockets: request building, response and error mapping. */
class OpenApiSessionTest {

    static final String USER = "ops-admin";
    static final String PASSWORD = "s3cret-Passw0rd";

    private final FakeVendor vendor = FakeVendor.start();
    private final TestContext ctx = new TestContext();
    private final ConnectorFactory factory = new OpenApiEngine().connector(Specs.connector("/api/v2", Specs.auth("basic",
                    Map.of()),
            Specs.op("acme.user.update", "PUT", "/{realm}/users/{user-id}", ResultKind.OBJECT,
                    RequestPlannerTest.USER_SCHEMA),
            Specs.op("acme.token.create", "POST", "/tokens", ResultKind.OBJECT, """
                    {"type":"object","properties":{"form":{"type":"object","x-svc-in":"body",
                     "x-svc-content-type":"application/x-www-form-urlencoded"}}}"""),
            Specs.op("acme.thing.list", "GET", "/things", ResultKind.SET, Specs.NO_PARAMS),
            Specs.op("acme.thing.get", "GET", "/things/one", ResultKind.OBJECT, Specs.NO_PARAMS),
            Specs.op("acme.thing.delete", "DELETE", "/things/one", ResultKind.OBJECT, Specs.NO_PARAMS),
            Specs.op("acme.thing.text", "GET", "/things/text", ResultKind.OBJECT, Specs.NO_PARAMS),
            Specs.op("acme.thing.missing", "GET", "/things/missing", ResultKind.OBJECT, Specs.NO_PARAMS),
            Specs.op("acme.thing.broken", "GET", "/things/broken", ResultKind.SET, Specs.NO_PARAMS),
            Specs.op("acme.thing.host", "GET", "/things/one", ResultKind.OBJECT, """
                    {"type":"object","properties":{"host":{"type":"string","x-svc-in":"header","x-svc-name":"Host"}}}""")));
    private final Credential credential = new Credential(Map.of("username", USER, "password", PASSWORD));

    @AfterEach
    void stop() {
        vendor.close();
    }

    private static void assertFailure(OperationResult result, ErrorCode code) {
        assertThat(result).isInstanceOfSatisfying(OperationResult.Failure.class, f -> assertThat(f.code()).isEqualTo(code));
    }

    private Connector open() {
        return factory.open(ctx, vendor.target(), credential);
    }

    @Test
    void pathQueryHeaderAndJsonBodyReachTheVendor() {
        vendor.on("PUT", "/api/v2/master/users/u%201", s -> Reply.json(200, "{\"id\":\"u 1\"}"));
        Map<String, Object> params = RequestPlannerTest.userParams("master", "u 1", 5, false, List.of("x", "y"), "req-1",
                Map.of("enabled", true, "count", 3));

        OperationResult r;
        try (Connector c = open()) {
            r = c.invoke(call("acme.user.update", params));
        }

        assertThat(r).isEqualTo(new OperationResult.Document(Map.of("id", "u 1")));
        FakeVendor.Seen seen = vendor.last();
        assertThat(seen.method()).isEqualTo("PUT");
        assertThat(seen.rawQuery()).isEqualTo("first=5&brief=false&tag=x&tag=y".replace("brief=", "briefRepresentation="));
        assertThat(seen.header("X-Request-Id")).isEqualTo("req-1");
        assertThat(seen.header("Accept")).isEqualTo("application/json");
        assertThat(seen.header("Content-Type")).isEqualTo("application/json");
        assertThat(seen.body()).contains("\"enabled\":true").contains("\"count\":3");
        assertThat(seen.header("Authorization")).startsWith("Basic ");
    }

    @Test
    void aFormBodyArrivesFormEncoded() {
        vendor.on("POST", "/api/v2/tokens", s -> Reply.json(201, "{\"ok\":true}"));
        try (Connector c = open()) {
            OperationResult r = c.invoke(call("acme.token.create", Map.of("form", Map.of("grant_type", "x y"))));
            assertThat(r).isEqualTo(new OperationResult.Document(Map.of("ok", true)));
        }
        assertThat(vendor.last().header("Content-Type")).isEqualTo("application/x-www-form-urlencoded");
        assertThat(vendor.last().body()).isEqualTo("grant_type=x+y");
    }

    @Test
    void aJsonArrayOfASetOperationIsRowsWithScalarsWrapped() {
        vendor.on("GET", "/api/v2/things", s -> Reply.json(200, "[{\"name\":\"a\",\"size\":1},\"b\",7]"));
        try (Connector c = open()) {
            OperationResult r = c.invoke(call("acme.thing.list", Map.of()));
            assertThat(r).isInstanceOfSatisfying(OperationResult.Rows.class, rows -> assertThat(rows.rows())
                    .containsExactly(Map.of("name", "a", "size", 1), Map.of("value", "b"), Map.of("value", 7)));
        }
    }

    @Test
    void aSetOperationAnsweringAnObjectIsADocument() {
        vendor.on("GET", "/api/v2/things/broken", s -> Reply.json(200, "{\"items\":[]}"));
        try (Connector c = open()) {
            assertThat(c.invoke(call("acme.thing.broken", Map.of())))
                    .isEqualTo(new OperationResult.Document(Map.of("items", List.of())));
        }
    }

    @Test
    void noContentIsADocumentOfTheStatus() {
        vendor.on("DELETE", "/api/v2/things/one", s -> Reply.empty(204));
        try (Connector c = open()) {
            assertThat(c.invoke(call("acme.thing.delete", Map.of())))
                    .isEqualTo(new OperationResult.Document(Map.of("status", 204)));
        }
    }

    @Test
    void aNonJsonAnswerIsADocumentWithTheTrimmedText() {
        String longText = "line\n".repeat(2000);
        vendor.on("GET", "/api/v2/things/text", s -> Reply.text(200, "text/plain; charset=utf-8", longText));
        try (Connector c = open()) {
            OperationResult r = c.invoke(call("acme.thing.text", Map.of()));
            assertThat(r).isInstanceOfSatisfying(OperationResult.Document.class, d -> {
                Map<?, ?> doc = (Map<?, ?>) d.value();
                assertThat(doc.get("status")).isEqualTo(200);
                assertThat(doc.get("content_type")).isEqualTo("text/plain; charset=utf-8");
                assertThat((String) doc.get("body")).hasSizeLessThanOrEqualTo(4097).startsWith("line\nline\n");
            });
        }
    }

    @Test
    void vendor404And500AreConnectorErrorsWithStatusAndTrimmedScrubbedBody() {
        vendor.on("GET", "/api/v2/things/missing", s -> Reply.json(404, "{\"error\":\"no thing for " + PASSWORD + "\"}"));
        vendor.on("GET", "/api/v2/things/one", s -> Reply.text(500, "text/html", "<h1>boom</h1>" + "x".repeat(5000)));
        try (Connector c = open()) {
            OperationResult notFound = c.invoke(call("acme.thing.missing", Map.of()));
            assertThat(notFound).isInstanceOfSatisfying(OperationResult.Failure.class, f -> {
                assertThat(f.code()).isEqualTo(ErrorCode.CONNECTOR_ERROR);
                assertThat(f.extras()).containsEntry("vendor_status", 404);
                assertThat((String) f.extras().get("vendor_body")).contains("no thing for ***")
                        .doesNotContain(PASSWORD);
            });
            OperationResult boom = c.invoke(call("acme.thing.get", Map.of()));
            assertThat(boom).isInstanceOfSatisfying(OperationResult.Failure.class, f -> {
                assertThat(f.code()).isEqualTo(ErrorCode.CONNECTOR_ERROR);
                assertThat(f.extras()).containsEntry("vendor_status", 500);
                assertThat((String) f.extras().get("vendor_body")).startsWith("<h1>boom</h1>").hasSizeLessThan(2100);
            });
        }
    }

    @Test
    void aWrongCredentialIsConnectorAuthFailed() {
        vendor.on("GET", "/api/v2/things/one", s -> Reply.json(401, "{\"error\":\"unauthorized\"}"));
        try (Connector c = factory.open(ctx, vendor.target(), new Credential(Map.of("username", USER,
                "password", "wrong-password")))) {
            OperationResult r = c.invoke(call("acme.thing.get", Map.of()));
            assertFailure(r, ErrorCode.CONNECTOR_AUTH_FAILED);
        }
    }

    @Test
    void anUnknownOperationAndAMissingPathParam() {
        try (Connector c = open()) {
            assertFailure(c.invoke(call("acme.no.such", Map.of())), ErrorCode.UNKNOWN_OPERATION);
            assertFailure(c.invoke(call("acme.user.update", Map.of("realm", "master"))), ErrorCode.INVALID_PARAMS);
        }
        assertThat(vendor.seen()).isEmpty();
    }

    @Test
    void aHeaderTheClientMayNotSetIsInvalidParams() {
        try (Connector c = open()) {
            assertFailure(c.invoke(call("acme.thing.host", Map.of("host", "evil.example"))), ErrorCode.INVALID_PARAMS);
        }
        assertThat(vendor.seen()).isEmpty();
    }

    @Test
    void previewRedactsSecretsAndSendsNothing() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("username", "bob");
        body.put("Password", "hunter22");
        body.put("credentials", List.of(Map.of("type", "password", "value", "x")));
        body.put("attributes", Map.of("apiKey", "k-123", "team", "blue", "client_secret", "cs"));
        HttpPreview p;
        try (Connector c = open()) {
            p = c.preview(call("acme.user.update", Map.of("realm", "master", "id", "u1", "first", 2, "body", body)))
                    .orElseThrow();
        }
        assertThat(vendor.seen()).isEmpty();
        assertThat(p.method()).isEqualTo("PUT");
        assertThat(p.path()).isEqualTo("/api/v2/master/users/u1");
        assertThat(p.query()).containsExactly(Map.entry("first", List.of("2")));
        assertThat(p.body()).contains(Map.of("username", "bob", "Password", Redaction.REDACTED,
                "credentials", Redaction.REDACTED,
                "attributes", Map.of("apiKey", Redaction.REDACTED, "team", "blue", "client_secret", Redaction.REDACTED)));
    }

    @Test
    void probeGetsTheBasePathAndReadsTheServerVersion() {
        vendor.on("GET", "/api/v2", s -> Reply.json(404, "{}").withHeader("Server", "Acme-Server/4.2.1 (linux)"));
        Fingerprint f;
        try (Connector c = open()) {
            f = c.probe();
        }
        assertThat(f.reachable()).isTrue();
        assertThat(f.product()).contains("acme");
        assertThat(f.version()).contains("4.2.1");
        assertThat(f.probeMethod()).isEqualTo("GET /api/v2");
        assertThat(vendor.last().header("Authorization")).startsWith("Basic ");
    }

    @Test
    void probeWithARejectedCredentialIsAuthFailed() {
        vendor.on("GET", "/api/v2", s -> Reply.json(401, "{}"));
        try (Connector c = open()) {
            assertThatThrownBy(c::probe).isInstanceOfSatisfying(ConnectorException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.CONNECTOR_AUTH_FAILED));
        }
    }

    @Test
    void serverVersionIsOnlyTakenWhenItNamesTheProduct() {
        assertThat(OpenApiSession.version("nginx/1.25.3", "acme")).isEmpty();
        assertThat(OpenApiSession.version("Jetty(9.4) acme/v2.0.1", "acme")).contains("2.0.1");
    }

    @Test
    void aClosedPortIsUnreachable() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        TargetSpec closed = new TargetSpec("gone", "acme", "127.0.0.1", port, Optional.empty(), true,
                Optional.empty(), Optional.empty(), Map.of("scheme", "http"));
        try (Connector c = factory.open(ctx, closed, credential)) {
            assertFailure(c.invoke(call("acme.thing.get", Map.of())), ErrorCode.CONNECTOR_UNREACHABLE);
        }
    }

    @Test
    void anUnknownHostIsUnreachable() {
        TargetSpec nowhere = new TargetSpec("gone", "acme", "no-such-host.invalid", 80, Optional.empty(), true,
                Optional.empty(), Optional.empty(), Map.of("scheme", "http"));
        try (Connector c = factory.open(ctx, nowhere, credential)) {
            assertFailure(c.invoke(call("acme.thing.get", Map.of())), ErrorCode.CONNECTOR_UNREACHABLE);
        }
    }

    @Test
    void aSlowVendorIsATimeout() {
        vendor.on("GET", "/api/v2/things/one", s -> {
            try {
                Thread.sleep(3000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Reply.json(200, "{}");
        });
        try (Connector c = factory.open(new TestContext(Duration.ofMillis(300)), vendor.target(), credential)) {
            assertFailure(c.invoke(call("acme.thing.get", Map.of())), ErrorCode.CONNECTOR_TIMEOUT);
        }
    }

    @Test
    void aSelfSignedCertificateIsTlsVerifyFailed(@TempDir Path dir) throws Exception {
        try (ReplayVendor https = ReplayVendor.https(dir, x -> x.reply(200, "{}"))) {
            TargetSpec target = new TargetSpec("tls", "acme", "127.0.0.1", https.port(), Optional.empty(), true,
                    Optional.empty(), Optional.empty(), Map.of());
            try (Connector c = factory.open(ctx, target, credential)) {
                OperationResult r = c.invoke(call("acme.thing.get", Map.of()));
                assertThat(r).isInstanceOfSatisfying(OperationResult.Failure.class, f -> {
                    assertThat(f.code()).isEqualTo(ErrorCode.CONNECTOR_TLS_VERIFY_FAILED);
                    assertThat(f.extras()).containsKey("exception_message");
                });
                assertThatThrownBy(c::probe).isInstanceOfSatisfying(ConnectorException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONNECTOR_TLS_VERIFY_FAILED));
            }
            assertThat(https.served()).isZero();
        }
    }

    @Test
    void secretsNeverShowInResultsLogsOrToString() {
        vendor.on("GET", "/api/v2/things/one", s -> Reply.json(200, "{\"echo\":\"" + PASSWORD + "\",\"auth\":\""
                + s.header("Authorization") + "\"}"));
        String text;
        try (Connector c = open()) {
            text = c.invoke(call("acme.thing.get", Map.of())) + " " + c;
        }
        String basic = vendor.last().header("Authorization").substring("Basic ".length());
        assertThat(text).doesNotContain(PASSWORD).doesNotContain(basic).contains("***");
        assertThat(String.join("\n", ctx.logLines())).doesNotContain(PASSWORD).doesNotContain(basic);
    }
}
