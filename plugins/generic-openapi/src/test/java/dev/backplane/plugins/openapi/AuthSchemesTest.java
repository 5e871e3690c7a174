package dev.backplane.plugins.openapi;

import static dev.backplane.plugins.openapi.Specs.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.plugins.openapi.FakeVendor.Reply;
import dev.backplane.plugin.api.AuthScheme;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.OperationResult;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugin.api.ResultKind;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Every auth scheme end to end against a fake vendor on loopback. */
class AuthSchemesTest {

    static final String KC_LOGIN = "/realms/master/protocol/openid-connect/token";
    static final String PASSWORD = "kc-admin-Pa55word";
    static final String API_TOKEN = "tok-9f8e7d6c5b4a";

    private final FakeVendor vendor = FakeVendor.start();
    private final TestContext ctx = new TestContext();
    private final Set<String> validTokens = ConcurrentHashMap.newKeySet();
    private final AtomicInteger issued = new AtomicInteger();

    @AfterEach
    void stop() {
        vendor.close();
        assertThat(String.join("\n", ctx.logLines())).doesNotContain(PASSWORD).doesNotContain(API_TOKEN)
                .doesNotContain("kc-token-");
    }

    private ConnectorFactory factory(String basePath, AuthScheme auth) {
        return new OpenApiEngine().connector(Specs.connector(basePath, auth,
                Specs.op("acme.realm.list", "GET", "/", ResultKind.SET, Specs.NO_PARAMS),
                Specs.op("acme.thing.get", "GET", "/thing", ResultKind.OBJECT, Specs.NO_PARAMS)));
    }

    private OperationResult invoke(ConnectorFactory f, Credential cred, String opId) {
        try (Connector c = f.open(ctx, vendor.target(), cred)) {
            return c.invoke(call(opId, Map.of()));
        }
    }

    private static Map<String, String> form(String body) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : body.split("&")) {
            String[] kv = pair.split("=", 2);
            out.put(URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
                    kv.length > 1 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
        }
        return out;
    }

    private static void assertFailure(OperationResult r, ErrorCode code) {
        assertThat(r).isInstanceOfSatisfying(OperationResult.Failure.class, f -> assertThat(f.code()).isEqualTo(code));
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    // --- basic and static_header -------------------------------------------------------------------------------

    @Test
    void basicSendsTheRenamedFields() {
        vendor.on("GET", "/api/thing", s -> basic("admin", PASSWORD).equals(s.header("Authorization"))
                ? Reply.json(200, "{\"ok\":1}") : Reply.json(401, "{}"));
        ConnectorFactory f = factory("/api", new AuthScheme("basic", List.of("admin_user", "admin_password"), Map.of()));
        assertThat(invoke(f, new Credential(Map.of("admin_user", "admin", "admin_password", PASSWORD)), "acme.thing.get"))
                .isEqualTo(new OperationResult.Document(Map.of("ok", 1)));
        assertFailure(invoke(f, new Credential(Map.of("admin_user", "admin", "admin_password", "nope-nope")),
                "acme.thing.get"), ErrorCode.CONNECTOR_AUTH_FAILED);
        assertFailure(invoke(f, new Credential(Map.of("username", "admin", "password", PASSWORD)), "acme.thing.get"),
                ErrorCode.CONNECTOR_ERROR);
    }

    @Test
    void staticHeaderDefaultsToABearerAuthorization() {
        vendor.on("GET", "/thing", s -> Reply.json(200, "{}"));
        invoke(factory("", Specs.auth("static_header", Map.of())), new Credential(Map.of("token", API_TOKEN)),
                "acme.thing.get");
        assertThat(vendor.last().header("Authorization")).isEqualTo("Bearer " + API_TOKEN);
    }

    @Test
    void staticHeaderWithACustomHeaderAndPrefix() {
        vendor.on("GET", "/thing", s -> API_TOKEN.equals(s.header("X-Vault-Token")) ? Reply.json(200, "{}")
                : Reply.json(401, "{}"));
        ConnectorFactory f = factory("", new AuthScheme("static_header", List.of("vault_token"),
                Map.of("header", "X-Vault-Token", "prefix", "")));
        assertThat(invoke(f, new Credential(Map.of("vault_token", API_TOKEN)), "acme.thing.get"))
                .isInstanceOf(OperationResult.Document.class);
        assertThat(vendor.last().header("Authorization")).isNull();
        assertFailure(invoke(f, new Credential(Map.of("vault_token", "revoked-token")), "acme.thing.get"),
                ErrorCode.CONNECTOR_AUTH_FAILED);

        vendor.on("GET", "/thing", s -> Reply.json(200, "{}"));
        invoke(factory("", Specs.auth("static_header", Map.of("prefix", "Token"))),
                new Credential(Map.of("token", API_TOKEN)), "acme.thing.get");
        assertThat(vendor.last().header("Authorization")).isEqualTo("Token " + API_TOKEN);
    }

    // --- session_login (Keycloak-style form login) ------------------------------------------------------------

    private void keycloak(int expiresIn) {
        vendor.on("POST", KC_LOGIN, s -> {
            Map<String, String> f = form(s.body());
            boolean ok = s.header("Content-Type").startsWith("application/x-www-form-urlencoded")
                    && "password".equals(f.get("grant_type")) && "admin-cli".equals(f.get("client_id"))
                    && "admin".equals(f.get("username")) && PASSWORD.equals(f.get("password"));
            if (!ok) {
                return Reply.json(401, "{\"error\":\"invalid_grant\",\"error_description\":\"Invalid user credentials\"}");
            }
            String token = "kc-token-" + issued.incrementAndGet();
            validTokens.add(token);
            return Reply.json(200, "{\"access_token\":\"" + token + "\",\"expires_in\":" + expiresIn
                    + ",\"token_type\":\"Bearer\"}");
        });
        vendor.on("GET", "/admin/realms", s -> {
            String auth = s.header("Authorization");
            return auth != null && auth.startsWith("Bearer ") && validTokens.contains(auth.substring(7))
                    ? Reply.json(200, "[{\"realm\":\"master\"},{\"realm\":\"shop\"}]") : Reply.json(401, "{}");
        });
    }

    private ConnectorFactory keycloakFactory() {
        return factory("/admin/realms", Specs.auth("session_login", Map.of("login_path", KC_LOGIN,
                "login_format", "form", "login_params", "grant_type=password&client_id=admin-cli")));
    }

    private static Credential admin() {
        return new Credential(Map.of("username", "admin", "password", PASSWORD));
    }

    @Test
    void sessionLoginLogsInOnceAndReusesTheToken() {
        keycloak(60);
        ConnectorFactory f = keycloakFactory();
        OperationResult first = invoke(f, admin(), "acme.realm.list");
        OperationResult second = invoke(f, admin(), "acme.realm.list");

        assertThat(first).isInstanceOfSatisfying(OperationResult.Rows.class, r -> assertThat(r.rows())
                .containsExactly(Map.of("realm", "master"), Map.of("realm", "shop")));
        assertThat(second).isEqualTo(first);
        assertThat(vendor.count("POST", KC_LOGIN)).isEqualTo(1);
        assertThat(vendor.seen().stream().filter(s -> s.path().equals("/admin/realms"))
                .map(s -> s.header("Authorization"))).containsExactly("Bearer kc-token-1", "Bearer kc-token-1");
        assertThat(vendor.seen().getFirst().header("Authorization")).isNull();
    }

    @Test
    void anExpiredSessionLogsInAgain() {
        keycloak(60); // used for 30 s
        ConnectorFactory f = keycloakFactory();
        invoke(f, admin(), "acme.realm.list");
        ctx.advance(Duration.ofSeconds(25));
        invoke(f, admin(), "acme.realm.list");
        assertThat(vendor.count("POST", KC_LOGIN)).isEqualTo(1);
        ctx.advance(Duration.ofSeconds(10));
        assertThat(invoke(f, admin(), "acme.realm.list")).isInstanceOf(OperationResult.Rows.class);
        assertThat(vendor.count("POST", KC_LOGIN)).isEqualTo(2);
        assertThat(vendor.last().header("Authorization")).isEqualTo("Bearer kc-token-2");
    }

    @Test
    void a401OnACachedSessionLogsInAgainOnceAndRetries() {
        keycloak(300);
        ConnectorFactory f = keycloakFactory();
        invoke(f, admin(), "acme.realm.list");
        validTokens.clear(); // the vendor forgot the session (restart, logout)

        assertThat(invoke(f, admin(), "acme.realm.list")).isInstanceOf(OperationResult.Rows.class);
        assertThat(vendor.count("POST", KC_LOGIN)).isEqualTo(2);
        assertThat(vendor.count("GET", "/admin/realms")).isEqualTo(3);
        assertThat(ctx.logLines()).anyMatch(l -> l.contains("logging in again"));
    }

    @Test
    void aSessionRefusedEvenAfterReLoginIsAuthFailedWithoutLooping() {
        keycloak(300);
        ConnectorFactory f = keycloakFactory();
        invoke(f, admin(), "acme.realm.list");
        vendor.on("GET", "/admin/realms", s -> Reply.json(401, "{}"));

        assertFailure(invoke(f, admin(), "acme.realm.list"), ErrorCode.CONNECTOR_AUTH_FAILED);
        assertThat(vendor.count("POST", KC_LOGIN)).isEqualTo(2);
        assertThat(vendor.count("GET", "/admin/realms")).isEqualTo(3);
    }

    @Test
    void aRejectedLoginIsAuthFailedAndSendsNoCall() {
        keycloak(60);
        ConnectorFactory f = keycloakFactory();
        Credential wrong = new Credential(Map.of("username", "admin", "password", "wrong-" + PASSWORD));
        OperationResult r = invoke(f, wrong, "acme.realm.list");
        assertFailure(r, ErrorCode.CONNECTOR_AUTH_FAILED);
        assertThat(r.toString()).doesNotContain(PASSWORD);
        try (Connector c = f.open(ctx, vendor.target(), wrong)) {
            assertThatThrownBy(c::probe).isInstanceOfSatisfying(ConnectorException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.CONNECTOR_AUTH_FAILED));
        }
        assertThat(vendor.count("GET", "/admin/realms")).isZero();
    }

    @Test
    void sessionsAreKeyedByCredentialAndConcurrentCallsShareOneLogin() throws Exception {
        keycloak(300);
        vendor.on("POST", "/other" + KC_LOGIN, s -> Reply.json(200, "{\"access_token\":\"kc-token-other\"}"));
        ConnectorFactory f = keycloakFactory();
        List<Future<OperationResult>> calls = new ArrayList<>();
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 8; i++) {
                calls.add(pool.submit(() -> invoke(f, admin(), "acme.realm.list")));
            }
            for (Future<OperationResult> call : calls) {
                assertThat(call.get()).isInstanceOf(OperationResult.Rows.class);
            }
        }
        assertThat(vendor.count("POST", KC_LOGIN)).isEqualTo(1);
        assertFailure(invoke(f, new Credential(Map.of("username", "someone-else", "password", PASSWORD)),
                "acme.realm.list"), ErrorCode.CONNECTOR_AUTH_FAILED);
        assertThat(vendor.count("POST", KC_LOGIN)).isEqualTo(2);
    }

    @Test
    void aJsonLoginWithATokenPointerAndTheSessionTtl() {
        vendor.on("POST", "/api/v1/session", s -> s.body().equals("{\"username\":\"admin\",\"password\":\"" + PASSWORD
                + "\"}") && s.header("Content-Type").equals("application/json")
                ? Reply.json(200, "{\"data\":{\"token\":\"argo-" + issued.incrementAndGet() + "\"}}")
                : Reply.json(401, "{}"));
        vendor.on("GET", "/api/v1/thing", s -> Reply.json(200, "{}"));
        ConnectorFactory f = factory("/api/v1", Specs.auth("session_login", Map.of("login_path", "/api/v1/session",
                "token_pointer", "/data/token", "session_ttl_seconds", "120")));
        invoke(f, admin(), "acme.thing.get");
        ctx.advance(Duration.ofSeconds(80));
        invoke(f, admin(), "acme.thing.get");
        assertThat(vendor.count("POST", "/api/v1/session")).isEqualTo(1);
        ctx.advance(Duration.ofSeconds(20)); // 120 s sessions are used for 90 s
        invoke(f, admin(), "acme.thing.get");
        assertThat(vendor.count("POST", "/api/v1/session")).isEqualTo(2);
        assertThat(vendor.last().header("Authorization")).isEqualTo("Bearer argo-2");
    }

    @Test
    void aLoginAnswerWithoutATokenIsAConnectorError() {
        vendor.on("POST", "/login", s -> Reply.json(200, "{\"ok\":true}"));
        ConnectorFactory f = factory("", Specs.auth("session_login", Map.of("login_path", "/login")));
        OperationResult r = invoke(f, admin(), "acme.thing.get");
        assertThat(r).isInstanceOfSatisfying(OperationResult.Failure.class, x -> {
            assertThat(x.code()).isEqualTo(ErrorCode.CONNECTOR_ERROR);
            assertThat(x.message()).contains("/access_token");
        });
    }

    // --- session_login_basic and session_login_token ---------------------------------------------------------

    /** session_login_basic: one login with HTTP Basic and no body, whose token "sess-1" goes back in {@code header}. */
    private void sessionLoginBasicLogsInOnce(Reply loggedIn, String header, Map<String, String> settings) {
        vendor.on("POST", "/api/session", s -> basic("admin", PASSWORD).equals(s.header("Authorization"))
                && s.body().isEmpty() ? loggedIn : Reply.json(403, "{}"));
        vendor.on("GET", "/api/thing", s -> "sess-1".equals(s.header(header)) ? Reply.json(200, "{\"a\":1}")
                : Reply.json(401, "{}"));
        Map<String, String> all = new LinkedHashMap<>(settings);
        all.putAll(Map.of("login_path", "/api/session", "header", header, "prefix", ""));
        ConnectorFactory f = factory("/api", Specs.auth("session_login_basic", all));
        assertThat(invoke(f, admin(), "acme.thing.get")).isEqualTo(new OperationResult.Document(Map.of("a", 1)));
        assertThat(invoke(f, admin(), "acme.thing.get")).isEqualTo(new OperationResult.Document(Map.of("a", 1)));
        assertThat(vendor.count("POST", "/api/session")).isEqualTo(1);
        assertFailure(invoke(f, new Credential(Map.of("username", "admin", "password", "bad-password")),
                "acme.thing.get"), ErrorCode.CONNECTOR_AUTH_FAILED);
    }

    @Test
    void sessionLoginBasicLogsInWithBasicAndReadsATokenHeader() {
        sessionLoginBasicLogsInOnce(Reply.json(201, "{}").withHeader("X-Session-Token", "sess-1"), "X-Session-Token",
                Map.of("token_header", "X-Session-Token"));
    }

    @Test
    void sessionLoginBasicReadsABareJsonStringAnswerWithAnEmptyTokenPointer() {
        // vCenter: POST /api/session answers "<session id>", sent back as vmware-api-session-id
        sessionLoginBasicLogsInOnce(Reply.json(201, "\"sess-1\"\n"), "vmware-api-session-id",
                Map.of("token_pointer", ""));
    }

    @Test
    void refusedStatusesTurnAVendors403IntoAnAuthFailure() {
        vendor.on("GET", "/thing", s -> basic("admin", PASSWORD).equals(s.header("Authorization"))
                ? Reply.json(200, "{}") : Reply.json(403, "{\"error_code\":98,\"error_message\":\"bad credentials\"}"));
        Credential wrong = new Credential(Map.of("username", "admin", "password", "not-" + PASSWORD));
        assertFailure(invoke(factory("", Specs.auth("basic", Map.of())), wrong, "acme.thing.get"),
                ErrorCode.CONNECTOR_ERROR);
        ConnectorFactory f = factory("", Specs.auth("basic", Map.of("refused_statuses", "401,403")));
        assertFailure(invoke(f, wrong, "acme.thing.get"), ErrorCode.CONNECTOR_AUTH_FAILED);
        assertThat(invoke(f, admin(), "acme.thing.get")).isInstanceOf(OperationResult.Document.class);
    }

    @Test
    void sessionLoginWithASetCookieSessionSendsItBackAsACookie() {
        vendor.on("POST", "/login", s -> Reply.json(200, "{}").withHeader("Set-Cookie", "SID=abc123; Path=/; HttpOnly"));
        vendor.on("GET", "/thing", s -> "SID=abc123".equals(s.header("Cookie")) ? Reply.json(200, "{}")
                : Reply.json(401, "{}"));
        ConnectorFactory f = factory("", Specs.auth("session_login", Map.of("login_path", "/login", "login_format",
                "form", "token_header", "Set-Cookie")));
        assertThat(invoke(f, admin(), "acme.thing.get")).isInstanceOf(OperationResult.Document.class);
        assertThat(form(vendor.seen().getFirst().body())).containsEntry("username", "admin");
    }

    @Test
    void sessionLoginTokenExchangesTheTokenForASession() {
        vendor.on("POST", "/api/v1/auth/exchange", s -> API_TOKEN.equals(s.header("X-Api-Token"))
                ? Reply.json(200, "{\"session\":{\"id\":\"sx-" + issued.incrementAndGet() + "\",\"ttl\":600}}")
                : Reply.json(401, "{}"));
        vendor.on("GET", "/api/v1/thing", s -> Reply.json(200, "{}"));
        ConnectorFactory f = factory("/api/v1", new AuthScheme("session_login_token", List.of("api_token"),
                Map.of("login_path", "/api/v1/auth/exchange", "login_token_header", "X-Api-Token",
                        "login_token_prefix", "", "token_pointer", "/session/id", "expires_pointer", "/session/ttl")));
        Credential cred = new Credential(Map.of("api_token", API_TOKEN));
        invoke(f, cred, "acme.thing.get");
        ctx.advance(Duration.ofSeconds(500));
        invoke(f, cred, "acme.thing.get");
        assertThat(vendor.count("POST", "/api/v1/auth/exchange")).isEqualTo(1);
        assertThat(vendor.last().header("Authorization")).isEqualTo("Bearer sx-1");
        ctx.advance(Duration.ofSeconds(80)); // 600 s sessions are used for 570 s
        invoke(f, cred, "acme.thing.get");
        assertThat(vendor.last().header("Authorization")).isEqualTo("Bearer sx-2");
        assertFailure(invoke(f, new Credential(Map.of("api_token", "stale-token")), "acme.thing.get"),
                ErrorCode.CONNECTOR_AUTH_FAILED);
    }

    @Test
    void sessionLoginTokenCanSendTheTokenAsABodyFieldToAnOrganisationsLoginPath() {
        vendor.on("POST", "/tm/oauth/tenant/blue%20org/token", s -> {
            Map<String, String> f = form(s.body());
            return "refresh_token".equals(f.get("grant_type")) && API_TOKEN.equals(f.get("refresh_token"))
                    && s.header("Authorization") == null
                    ? Reply.json(200, "{\"access_token\":\"at-" + issued.incrementAndGet() + "\",\"expires_in\":3600}")
                    : Reply.json(400, "{\"error\":\"invalid_grant\"}");
        });
        vendor.on("GET", "/thing", s -> Reply.json(200, "{}"));
        ConnectorFactory f = factory("", new AuthScheme("session_login_token", List.of("api_token"),
                Map.of("login_path", "/tm/oauth/tenant/{org}/token", "login_format", "form",
                        "login_params", "grant_type=refresh_token", "login_token_param", "refresh_token")));
        Credential cred = new Credential(Map.of("api_token", API_TOKEN));
        try (Connector c = f.open(ctx, withExtra("org", "blue org"), cred)) {
            assertThat(c.invoke(call("acme.thing.get", Map.of()))).isInstanceOf(OperationResult.Document.class);
        }
        assertThat(vendor.last().header("Authorization")).isEqualTo("Bearer at-1");
        assertThat(vendor.count("POST", "/tm/oauth/tenant/blue%20org/token")).isEqualTo(1);

        try (Connector c = f.open(ctx, withExtra("org", "red"), cred)) {
            assertFailure(c.invoke(call("acme.thing.get", Map.of())), ErrorCode.CONNECTOR_ERROR); // not blue's session
        }
        for (TargetSpec t : List.of(vendor.target(), withExtra("org", ".."))) {
            try (Connector c = f.open(ctx, t, cred)) {
                OperationResult r = c.invoke(call("acme.thing.get", Map.of()));
                assertFailure(r, ErrorCode.CONNECTOR_ERROR);
                assertThat(((OperationResult.Failure) r).message()).contains("extras.org");
            }
        }
        assertThat(vendor.count("POST", "/tm/oauth/tenant/../token")).isZero();
        try (Connector c = f.open(ctx, withExtra("org", "blue org"), new Credential(Map.of("api_token", "revoked")))) {
            assertFailure(c.invoke(call("acme.thing.get", Map.of())), ErrorCode.CONNECTOR_AUTH_FAILED);
        }
    }

    private TargetSpec withExtra(String key, String value) {
        TargetSpec t = vendor.target();
        Map<String, Object> extras = new java.util.HashMap<>(t.extras());
        extras.put(key, value);
        return new TargetSpec(t.name(), t.product(), t.host(), t.port(), t.version(), t.verifyTls(), t.tlsCaPin(),
                t.tlsServerName(), extras);
    }

    // --- oauth2_mint ---------------------------------------------------------------------------------------------

    private void authorizationServer() {
        vendor.on("POST", "/oauth/token", s -> {
            Map<String, String> f = form(s.body());
            String id = f.get("client_id");
            String secret = f.get("client_secret");
            String auth = s.header("Authorization");
            if (auth != null && auth.startsWith("Basic ")) {
                String[] pair = new String(Base64.getDecoder().decode(auth.substring(6)), StandardCharsets.UTF_8)
                        .split(":", 2);
                id = pair[0];
                secret = pair[1];
            }
            if (!"client_credentials".equals(f.get("grant_type")) || !"svc".equals(id) || !PASSWORD.equals(secret)) {
                return Reply.json(400, "{\"error\":\"invalid_client\"}");
            }
            return Reply.json(200, "{\"access_token\":\"at-" + issued.incrementAndGet() + "\",\"token_type\":\"Bearer\","
                    + "\"expires_in\":300,\"scope\":\"" + f.getOrDefault("scope", "") + "\"}");
        });
        vendor.on("GET", "/v1/thing", s -> s.header("Authorization") != null && s.header("Authorization")
                .startsWith("Bearer at-") ? Reply.json(200, "{}") : Reply.json(401, "{}"));
    }

    @Test
    void oauth2MintCachesTheAccessTokenUntilShortlyBeforeItExpires() {
        authorizationServer();
        ConnectorFactory f = factory("/v1", Specs.auth("oauth2_mint", Map.of("token_path", "/oauth/token",
                "scope", "read write")));
        Credential cred = new Credential(Map.of("client_id", "svc", "client_secret", PASSWORD));
        invoke(f, cred, "acme.thing.get");
        invoke(f, cred, "acme.thing.get");
        assertThat(vendor.count("POST", "/oauth/token")).isEqualTo(1);
        Map<String, String> mint = form(vendor.seen().getFirst().body());
        assertThat(mint).containsEntry("grant_type", "client_credentials").containsEntry("scope", "read write")
                .containsEntry("client_id", "svc");
        assertThat(vendor.last().header("Authorization")).isEqualTo("Bearer at-1");

        ctx.advance(Duration.ofSeconds(265));
        invoke(f, cred, "acme.thing.get");
        assertThat(vendor.count("POST", "/oauth/token")).isEqualTo(1);
        ctx.advance(Duration.ofSeconds(10)); // 300 s tokens are used for 270 s
        invoke(f, cred, "acme.thing.get");
        assertThat(vendor.count("POST", "/oauth/token")).isEqualTo(2);
        assertThat(vendor.last().header("Authorization")).isEqualTo("Bearer at-2");
    }

    @Test
    void oauth2MintWithBasicClientAuthAndAnAbsoluteTokenUrl() {
        authorizationServer();
        ConnectorFactory f = factory("/v1", Specs.auth("oauth2_mint", Map.of("token_url",
                "http://127.0.0.1:" + vendor.port() + "/oauth/token", "client_auth", "basic")));
        assertThat(invoke(f, new Credential(Map.of("client_id", "svc", "client_secret", PASSWORD)), "acme.thing.get"))
                .isInstanceOf(OperationResult.Document.class);
        assertThat(vendor.seen().getFirst().body()).doesNotContain("client_secret");
    }

    @Test
    void aWrongClientSecretIsAuthFailed() {
        authorizationServer();
        ConnectorFactory f = factory("/v1", Specs.auth("oauth2_mint", Map.of("token_path", "/oauth/token")));
        OperationResult r = invoke(f, new Credential(Map.of("client_id", "svc", "client_secret", "not-" + PASSWORD)),
                "acme.thing.get");
        assertFailure(r, ErrorCode.CONNECTOR_AUTH_FAILED);
        assertThat(vendor.count("GET", "/v1/thing")).isZero();
    }

    @Test
    void aConnectorsTokenUrlOnAnotherHostNeverReceivesTheClientSecret() {
        authorizationServer();
        ConnectorFactory f = factory("/v1", Specs.auth("oauth2_mint", Map.of("token_url",
                "http://localhost:" + vendor.port() + "/oauth/token")));
        OperationResult r = invoke(f, new Credential(Map.of("client_id", "svc", "client_secret", PASSWORD)),
                "acme.thing.get");
        assertFailure(r, ErrorCode.CONNECTOR_ERROR);
        assertThat(((OperationResult.Failure) r).message()).contains("token_url").contains("extras.token_url")
                .doesNotContain(PASSWORD);
        assertThat(vendor.seen()).as("nothing was sent anywhere").isEmpty();
    }

    @Test
    void aTokenUrlTheTenantSetOnTheTargetMayNameAnotherHost() {
        authorizationServer();
        ConnectorFactory f = factory("/v1", Specs.auth("oauth2_mint", Map.of("token_url", "https://idp.invalid/token")));
        TargetSpec chosen = withExtra("token_url", "http://localhost:" + vendor.port() + "/oauth/token");
        try (Connector c = f.open(ctx, chosen, new Credential(Map.of("client_id", "svc", "client_secret", PASSWORD)))) {
            assertThat(c.invoke(call("acme.thing.get", Map.of()))).isInstanceOf(OperationResult.Document.class);
        }
        assertThat(vendor.count("POST", "/oauth/token")).isEqualTo(1);
    }
}
