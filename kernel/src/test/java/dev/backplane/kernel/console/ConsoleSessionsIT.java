package dev.backplane.kernel.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.ExternalPostgres;
import dev.backplane.kernel.testing.Fixtures;
import dev.backplane.kernel.testing.KeycloakServer;
import dev.backplane.kernel.testing.LoopbackCookieJar;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestKernel;
import java.net.URI;
import java.net.URLEncoder;
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
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Console sign-in and sessions against a real Keycloak, signing in on Keycloak's own login form over plain HTTP (no
 * browser needed), on two kernels sharing one PostgreSQL (replicas behind a load balancer). Each property that made us
 * keep our own flow rather than Helidon's OIDC provider (docs/architecture.md, "Console sign-in: why not
 * helidon-security-oidc") is held here:
 * <ul>
 *   <li>PKCE (S256), state and nonce: the authorize redirect carries them, bound to the browser's sealed sign-in
 *       cookie, and a callback with another verifier, another sign-in's state or an ID token for another nonce is
 *       refused;</li>
 *   <li>sessions in PostgreSQL: a session opened on one replica is served, re-validated and ended on the other;</li>
 *   <li>logout at the identity provider: the session row is gone and the browser is sent to Keycloak's
 *       end_session_endpoint with id_token_hint, which ends Keycloak's session too;</li>
 *   <li>re-validation within {@code console.revalidate-seconds} (here 2 s): a disabled user's session ends, a
 *       demoted user's session loses the rights at once;</li>
 *   <li>anonymous sign-in starts cannot lock anybody out and write nothing to the database.</li>
 * </ul>
 */
class ConsoleSessionsIT {

    static final String REALM = "svc";
    static final UUID TENANT = UUID.randomUUID();
    static final String PASSWORD = "pw-" + UUID.randomUUID();
    static final int REVALIDATE_SECONDS = 2;

    static Path work;
    static KeycloakServer keycloak;
    static ExternalPostgres pg;
    /** The replica whose URL is the console's redirect URI at Keycloak. */
    static TestKernel kernel;
    /** Another replica on the same database. */
    static TestKernel replica;

    @BeforeAll
    static void start() throws Exception {
        work = TempDirs.create("svc-console-sessions");
        keycloak = KeycloakServer.start(work);
        pg = ExternalPostgres.start();
        Map<String, String> env = pg.addTo(new java.util.HashMap<>(Map.of(
                "SVC_IDENTITY_ISSUER", keycloak.url() + "/realms/" + REALM,
                "SVC_CONSOLE_REVALIDATE_SECONDS", String.valueOf(REVALIDATE_SECONDS),
                // both replicas share one data directory (and so its kv files), as Replicas does
                "SVC_CREDENTIALS_FILE_SINGLE_REPLICA", "true")));
        kernel = TestKernel.start(work.resolve("shared"), env);
        replica = TestKernel.start(work.resolve("shared"), env);
        CliRunner admin = new CliRunner(work.resolve("admin-config"))
                .env("KEYCLOAK_ADMIN_USER", KeycloakServer.ADMIN)
                .env("KEYCLOAK_ADMIN_PASSWORD", keycloak.adminPassword())
                .env("SVC_BOOTSTRAP_USER_PASSWORD", PASSWORD);
        for (String user : List.of("carol", "bob", "alice", "dave", "erin")) {
            CliRunner.Result r = admin.run("admin", "idp", "bootstrap-clients", "--keycloak-base-url", keycloak.url(),
                    "--realm", REALM, "--console-url", kernel.url(), "--admin-user-username", user,
                    "--tenant-id", TENANT.toString(), "--tenant-role", "tenant_admin");
            assertThat(r.exitCode()).as(r.toString()).isZero();
        }
    }

    @AfterAll
    static void stop() {
        Fixtures.closeAll(replica, kernel, pg, keycloak);
    }

    @Test
    void anonymousSignInStartsWriteNothingAndLockNobodyOut() throws Exception {
        long sessionsBefore = count("SELECT count(*) FROM console_sessions");
        AtomicInteger redirected = new AtomicInteger();
        List<Integer> others = java.util.Collections.synchronizedList(new ArrayList<>());
        try (HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
             ExecutorService pool = Executors.newFixedThreadPool(8)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 1500; i++) {
                        HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(kernel.url() + "/ui/login"))
                                .build(), HttpResponse.BodyHandlers.discarding());
                        if (r.statusCode() == 302 && r.headers().firstValue("Location").orElse("")
                                .startsWith(keycloak.url())) {
                            redirected.incrementAndGet();
                        } else {
                            others.add(r.statusCode());
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
        assertThat(others).as("statuses other than the redirect to the identity provider").isEmpty();
        assertThat(redirected.get()).isEqualTo(12_000);
        assertThat(kernel.jdbc().queryOne("SELECT to_regclass('console_logins') IS NULL", rs -> rs.getBoolean(1)))
                .as("no table holds sign-ins in flight").hasValue(true);
        assertThat(count("SELECT count(*) FROM console_sessions")).isEqualTo(sessionsBefore);
        assertThat(count("SELECT count(*) FROM console_keys")).as("one key for every replica").isEqualTo(1);

        try (Browser carol = Browser.signIn("carol", "/ui/kb")) {
            assertThat(carol.get("/ui/kb").body()).contains("id=\"who\"", "carol");
        }
    }

    @Test
    void aDisabledUsersSessionEndsWithinTheInterval() throws Exception {
        try (Browser bob = Browser.signIn("bob", "/ui/kb")) {
            String row = kernel.jdbc().queryOne("SELECT s::text FROM console_sessions s WHERE sub = ?",
                    rs -> rs.getString(1), userId("bob")).orElseThrow();
            assertThat(kernel.jdbc().queryOne("SELECT refresh_token FROM console_sessions WHERE sub = ?",
                    rs -> rs.getString(1), userId("bob"))).as("the refresh token is kept").isPresent();
            // A JWT is "eyJ...", a dot, "eyJ...", a dot. The sealed text is base64url without dots, in which "eyJ" alone
            // turns up by chance (it did, once in CI).
            assertThat(row).as("kept sealed: no JWT in the row").doesNotContainPattern("eyJ[\\w-]+\\.eyJ[\\w-]+\\.");

            ObjectNode user = user("bob");
            user.put("enabled", false);
            assertThat(keycloak.admin("PUT", "/" + REALM + "/users/" + userId("bob"), user).statusCode()).isEqualTo(204);
            Instant disabledAt = Instant.now();

            HttpResponse<String> page = awaitPage(bob, "/ui/kb", r -> r.statusCode() == 302);
            assertThat(page.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).startsWith("/ui/login"));
            assertThat(Duration.between(disabledAt, Instant.now())).isLessThan(Duration.ofSeconds(REVALIDATE_SECONDS + 10));
            assertThat(count("SELECT count(*) FROM console_sessions WHERE sub = '" + userId("bob") + "'"))
                    .as("the session is gone").isZero();
        }
    }

    @Test
    void aDemotedUserLosesTheRightsWithinTheInterval() throws Exception {
        try (Browser alice = Browser.signIn("alice", "/ui/kb")) {
            assertThat(alice.get("/ui/kb/new").statusCode()).as("a tenant_admin may add a kb entry").isEqualTo(200);

            ObjectNode user = user("alice");
            user.withObjectProperty("attributes").putArray("tenant_role").add("read_only");
            assertThat(keycloak.admin("PUT", "/" + REALM + "/users/" + userId("alice"), user).statusCode()).isEqualTo(204);

            HttpResponse<String> page = awaitPage(alice, "/ui/kb/new", r -> r.statusCode() != 200);
            assertThat(page.statusCode()).isEqualTo(403);
            assertThat(page.body()).contains("insufficient_role");
            assertThat(alice.get("/ui/kb").statusCode()).as("still signed in, as read_only").isEqualTo(200);
            assertThat(kernel.jdbc().queryOne("SELECT tenant_role FROM console_sessions WHERE sub = ?",
                    rs -> rs.getString(1), userId("alice"))).hasValue("read_only");
        }
    }


    @Test
    void theAuthorizeRedirectCarriesPkceStateAndNonceAndKeycloakHoldsTheSignInToTheVerifier() throws Exception {
        try (Browser b = new Browser()) {
            HttpResponse<String> started = b.get("/ui/login?return=/ui/kb");
            assertThat(started.statusCode()).isEqualTo(302);
            String location = started.headers().firstValue("Location").orElseThrow();
            assertThat(location).startsWith(keycloak.url() + "/realms/" + REALM + "/protocol/openid-connect/auth?");
            Map<String, String> q = query(location);
            assertThat(q).containsEntry("response_type", "code").containsEntry("client_id", "svc-console")
                    .containsEntry("code_challenge_method", "S256").containsEntry("redirect_uri", kernel.url() + "/ui/callback")
                    .containsKeys("state", "nonce", "code_challenge");
            // what the browser's sealed cookie holds is what was sent: the challenge is S256 of its verifier
            PendingLogin pending = signIns().take(b.cookies.get(ConsoleSignInRoutes.LOGIN_COOKIE), q.get("state"))
                    .orElseThrow();
            assertThat(pending.nonce()).isEqualTo(q.get("nonce")).hasSizeGreaterThanOrEqualTo(43);
            assertThat(pending.codeVerifier()).hasSizeGreaterThanOrEqualTo(43);
            assertThat(q.get("code_challenge")).isEqualTo(OidcLogin.challenge(pending.codeVerifier()))
                    .isNotEqualTo(pending.codeVerifier());
            assertThat(q.get("state")).hasSizeGreaterThanOrEqualTo(43).isNotEqualTo(pending.nonce());
        }
        // a code redeemed with another verifier than the one its challenge was made from: Keycloak refuses it
        long before = sessionsOf("dave");
        try (Browser b = new Browser()) {
            HttpResponse<String> form = b.startSignIn("/ui/kb", p -> new PendingLogin(p.state(),
                    ConsoleSessions.randomToken(), p.nonce(), p.returnTo(), p.expiresAt()));
            HttpResponse<String> refused = b.send(b.callbackAfterLogin(form, "dave"));
            assertThat(refused.statusCode()).isEqualTo(401);
            assertThat(refused.body()).contains("login_failed", "invalid_grant").doesNotContain("Exception");
        }
        assertThat(sessionsOf("dave")).as("no session opened").isEqualTo(before);
    }

    @Test
    void aCallbackWithTheStateOfAnotherSignInIsRefused() throws Exception {
        long before = sessionsOf("dave");
        String otherState;
        try (Browser other = new Browser()) {
            otherState = query(other.get("/ui/login").headers().firstValue("Location").orElseThrow()).get("state");
        }
        try (Browser b = new Browser()) {
            HttpResponse<String> form = b.startSignIn("/ui/kb", p -> p);
            URI callback = b.callbackAfterLogin(form, "dave");
            String state = query(callback.toString()).get("state");
            assertThat(state).isNotEqualTo(otherState);
            URI swapped = URI.create(callback.toString().replace("state=" + URLEncoder.encode(state, StandardCharsets.UTF_8),
                    "state=" + URLEncoder.encode(otherState, StandardCharsets.UTF_8)));
            assertThat(swapped).isNotEqualTo(callback);
            HttpResponse<String> refused = b.send(swapped);
            assertThat(refused.statusCode()).isEqualTo(401);
            assertThat(refused.body()).contains("login_failed", "not started in this browser");
            assertThat(refused.headers().allValues("Set-Cookie")).noneMatch(c -> c.startsWith(ConsoleRoutes.COOKIE + "="));
        }
        assertThat(sessionsOf("dave")).as("no session opened").isEqualTo(before);
    }

    @Test
    void anIdTokenIssuedForAnotherNonceIsRefused() throws Exception {
        long before = sessionsOf("dave");
        try (Browser b = new Browser()) {
            // the browser's cookie expects another nonce than the one Keycloak puts into the ID token (state and
            // verifier unchanged, so only the nonce check can refuse it)
            HttpResponse<String> form = b.startSignIn("/ui/kb", p -> new PendingLogin(p.state(), p.codeVerifier(),
                    ConsoleSessions.randomToken(), p.returnTo(), p.expiresAt()));
            HttpResponse<String> refused = b.send(b.callbackAfterLogin(form, "dave"));
            assertThat(refused.statusCode()).isEqualTo(401);
            assertThat(refused.body()).contains("login_failed", "nonce mismatch");
        }
        assertThat(sessionsOf("dave")).as("no session opened").isEqualTo(before);
        try (Browser b = Browser.signIn("dave", "/ui/kb")) {
            assertThat(sessionsOf("dave")).as("the same sign-in with its own nonce opens one").isEqualTo(before + 1);
        }
    }

    @Test
    void aSessionOpenedOnOneReplicaIsServedRevalidatedAndLoggedOutOnTheOtherAndAtKeycloak() throws Exception {
        try (Browser erin = Browser.signIn("erin", "/ui/kb")) {
            HttpResponse<String> onReplica = erin.get(replica, "/ui/kb");
            assertThat(onReplica.statusCode()).isEqualTo(200);
            assertThat(onReplica.body()).contains("id=\"who\"", "erin");
            assertThat(onReplica.headers().firstValue("Content-Security-Policy")).as("the sign-out form may go on to "
                    + "Keycloak (browsers hold a form's redirect to form-action), and nowhere else")
                    .hasValueSatisfying(p -> assertThat(p).contains("form-action 'self' " + keycloak.url() + ";"));

            // the replica re-validates it with the refresh token the other replica sealed
            Instant checked = validatedAt("erin");
            Thread.sleep(REVALIDATE_SECONDS * 1000L + 500);
            assertThat(erin.get(replica, "/ui/kb").statusCode()).isEqualTo(200);
            assertThat(validatedAt("erin")).as("re-validated by the replica").isAfter(checked);
            assertThat(erin.get(kernel, "/ui/kb").statusCode()).isEqualTo(200);

            // logout on the replica: the row is gone, and the browser goes on to Keycloak's end_session_endpoint
            String csrf = Jsoup.parse(erin.get(replica, "/ui/kb").body()).select("form[action=/ui/logout] input[name=_csrf]")
                    .attr("value");
            assertThat(csrf).isNotEmpty();
            HttpResponse<String> out = erin.post(replica, "/ui/logout", "_csrf=" + URLEncoder.encode(csrf,
                    StandardCharsets.UTF_8));
            assertThat(out.statusCode()).isEqualTo(303);
            String location = out.headers().firstValue("Location").orElseThrow();
            assertThat(location).startsWith(discovery().path("end_session_endpoint").asText() + "?");
            Map<String, String> q = query(location);
            assertThat(q).containsEntry("client_id", "svc-console").containsKey("id_token_hint");
            JsonNode idToken = jwtClaims(q.get("id_token_hint"));
            assertThat(idToken.path("sub").asText()).isEqualTo(userId("erin"));
            assertThat(idToken.path("aud").toString()).contains("svc-console");
            assertThat(sessionsOf("erin")).as("the session row is gone").isZero();
            assertThat(erin.get(kernel, "/ui/kb").statusCode()).as("no replica serves it any more").isEqualTo(302);
            assertThat(erin.get(replica, "/ui/kb").statusCode()).isEqualTo(302);

            // following the redirect ends erin's session at Keycloak: a new sign-in asks for the password again
            String sid = idToken.path("sid").asText();
            assertThat(keycloakSessions("erin")).as("Keycloak's session before the redirect").contains(sid);
            HttpResponse<String> atKeycloak = erin.send(URI.create(location));
            assertThat(atKeycloak.statusCode()).as(atKeycloak.body()).isLessThan(400);
            assertThat(keycloakSessions("erin")).as("Keycloak's session after the redirect").doesNotContain(sid);
            HttpResponse<String> again = erin.send(URI.create(keycloak.url()).resolve(erin.get("/ui/login")
                    .headers().firstValue("Location").orElseThrow()));
            assertThat(Jsoup.parse(again.body()).getElementById("kc-form-login")).as("Keycloak asks to sign in again")
                    .isNotNull();
        }
    }

    @Test
    void aSessionFromBeforeIdTokensWereKeptStillRevalidatesAndSignsOutLocally() throws Exception {
        try (Browser carol = Browser.signIn("carol", "/ui/kb")) {
            Seal seal = Seal.load(new SealKeyStore(kernel.jdbc()));
            String idHash = kernel.jdbc().queryOne("SELECT id_hash FROM console_sessions WHERE sub = ? "
                    + "ORDER BY validated_at DESC LIMIT 1", rs -> rs.getString(1), userId("carol")).orElseThrow();
            String sealed = kernel.jdbc().queryOne("SELECT refresh_token FROM console_sessions WHERE id_hash = ?",
                    rs -> rs.getString(1), idHash).orElseThrow();
            String[] both = new String(seal.open("svc-console tokens v2 " + idHash, sealed).orElseThrow(),
                    StandardCharsets.UTF_8).split("\n", -1);
            assertThat(both).hasSize(2);
            assertThat(both[1]).as("the ID token is kept").startsWith("eyJ");
            // the row as an older kernel wrote it: the refresh token alone, sealed for purpose v1
            kernel.jdbc().update("UPDATE console_sessions SET refresh_token = ? WHERE id_hash = ?",
                    seal.seal("svc-console refresh token v1 " + idHash, both[0].getBytes(StandardCharsets.UTF_8)), idHash);
            Instant checked = kernel.jdbc().queryOne("SELECT validated_at FROM console_sessions WHERE id_hash = ?",
                    rs -> rs.getTimestamp(1).toInstant(), idHash).orElseThrow();
            Thread.sleep(REVALIDATE_SECONDS * 1000L + 500);
            assertThat(carol.get("/ui/kb").statusCode()).as("re-validated with the v1 refresh token").isEqualTo(200);
            assertThat(kernel.jdbc().queryOne("SELECT validated_at FROM console_sessions WHERE id_hash = ?",
                    rs -> rs.getTimestamp(1).toInstant(), idHash).orElseThrow()).isAfter(checked);

            // Keycloak's refresh also hands out an ID token: the row holds both again
            String resealed = kernel.jdbc().queryOne("SELECT refresh_token FROM console_sessions WHERE id_hash = ?",
                    rs -> rs.getString(1), idHash).orElseThrow();
            assertThat(seal.open("svc-console tokens v2 " + idHash, resealed)).isPresent();

            // a session without an ID token (dropped here; checked just now, so no re-validation brings one back before
            // the logout) signs out locally: the console's own page
            kernel.jdbc().update("UPDATE console_sessions SET refresh_token = ?, validated_at = now() WHERE id_hash = ?",
                    seal.seal("svc-console refresh token v1 " + idHash, both[0].getBytes(StandardCharsets.UTF_8)), idHash);
            String csrf = Jsoup.parse(carol.get("/ui/kb").body()).select("form[action=/ui/logout] input[name=_csrf]")
                    .attr("value");
            HttpResponse<String> out = carol.post(kernel, "/ui/logout", "_csrf=" + URLEncoder.encode(csrf,
                    StandardCharsets.UTF_8));
            assertThat(out.statusCode()).isEqualTo(200);
            assertThat(out.body()).contains("signed out");
            assertThat(kernel.jdbc().queryOne("SELECT count(*) FROM console_sessions WHERE id_hash = ?",
                    rs -> rs.getLong(1), idHash)).hasValue(0L);
        }
    }

    private static HttpResponse<String> awaitPage(Browser b, String path,
                                                  java.util.function.Predicate<HttpResponse<String>> until)
            throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(REVALIDATE_SECONDS + 10));
        HttpResponse<String> r = b.get(path);
        while (!until.test(r) && Instant.now().isBefore(deadline)) {
            Thread.sleep(250);
            r = b.get(path);
        }
        assertThat(until.test(r)).as("within the re-validation interval: " + r.statusCode()).isTrue();
        return r;
    }

    private static SignInCookie signIns() {
        return new SignInCookie(Seal.load(new SealKeyStore(kernel.jdbc())));
    }

    private static long sessionsOf(String username) throws Exception {
        return kernel.jdbc().queryOne("SELECT count(*) FROM console_sessions WHERE sub = ?", rs -> rs.getLong(1),
                userId(username)).orElseThrow();
    }

    private static Instant validatedAt(String username) throws Exception {
        return kernel.jdbc().queryOne("SELECT validated_at FROM console_sessions WHERE sub = ?",
                rs -> rs.getTimestamp(1).toInstant(), userId(username)).orElseThrow();
    }

    private static JsonNode discovery() throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(http.send(HttpRequest.newBuilder(
                    URI.create(keycloak.url() + "/realms/" + REALM + "/.well-known/openid-configuration")).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
        }
    }

    /** The ids of {@code username}'s sessions at Keycloak. */
    private static List<String> keycloakSessions(String username) throws Exception {
        List<String> ids = new ArrayList<>();
        keycloak.adminJson("/" + REALM + "/users/" + userId(username) + "/sessions").forEach(s -> ids.add(s.path("id")
                .asText()));
        return ids;
    }

    private static JsonNode jwtClaims(String jwt) throws Exception {
        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(java.util.Base64.getUrlDecoder()
                .decode(jwt.split("\\.")[1]));
    }

    /** The query parameters of {@code url}, decoded. */
    private static Map<String, String> query(String url) {
        Map<String, String> q = new java.util.LinkedHashMap<>();
        for (String pair : URI.create(url).getRawQuery().split("&")) {
            int eq = pair.indexOf('=');
            q.put(java.net.URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    java.net.URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return q;
    }

    private static long count(String sql) {
        return kernel.jdbc().queryOne(sql, rs -> rs.getLong(1)).orElseThrow();
    }

    private static String userId(String username) throws Exception {
        return keycloak.adminJson("/" + REALM + "/users?exact=true&username=" + username).get(0).path("id").asText();
    }

    private static ObjectNode user(String username) throws Exception {
        return (ObjectNode) keycloak.adminJson("/" + REALM + "/users/" + userId(username));
    }

    /** One browser's cookies (kernel and Keycloak alike; Keycloak's are Secure, which loopback treats as secure). */
    static final class Browser extends LoopbackCookieJar implements AutoCloseable {
        final HttpClient http = HttpClient.newBuilder().cookieHandler(this).followRedirects(HttpClient.Redirect.NEVER)
                .build();

        /** Opens {@code page}, follows the redirects to Keycloak's login form, signs in and lands back on the page. */
        static Browser signIn(String username, String page) throws Exception {
            Browser b = new Browser();
            HttpResponse<String> r = b.follow(HttpRequest.newBuilder(URI.create(kernel.url() + page)).build());
            Element form = Jsoup.parse(r.body(), r.uri().toString()).getElementById("kc-form-login");
            assertThat(form).as("Keycloak's login form at " + r.uri()).isNotNull();
            String body = Map.of("username", username, "password", PASSWORD).entrySet().stream()
                    .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                    .collect(Collectors.joining("&"));
            r = b.follow(HttpRequest.newBuilder(URI.create(form.absUrl("action")))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build());
            assertThat(r.uri().toString()).isEqualTo(kernel.url() + page);
            assertThat(r.body()).contains("id=\"who\"").contains(username);
            return b;
        }

        HttpResponse<String> get(String path) throws Exception {
            return get(kernel, path);
        }

        HttpResponse<String> get(TestKernel replica, String path) throws Exception {
            return send(URI.create(replica.url() + path));
        }

        HttpResponse<String> post(TestKernel replica, String path, String form) throws Exception {
            return http.send(HttpRequest.newBuilder(URI.create(replica.url() + path))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
        }

        HttpResponse<String> send(URI uri) throws Exception {
            return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
        }

        /**
         * Starts a sign-in for {@code page}, replaces the sealed sign-in cookie by {@code alter} of what it holds (to
         * forge one field), and follows the redirect to Keycloak's login form.
         */
        HttpResponse<String> startSignIn(String page, java.util.function.UnaryOperator<PendingLogin> alter)
                throws Exception {
            HttpResponse<String> started = get("/ui/login?return=" + URLEncoder.encode(page, StandardCharsets.UTF_8));
            String location = started.headers().firstValue("Location").orElseThrow();
            PendingLogin pending = signIns().take(cookies.get(ConsoleSignInRoutes.LOGIN_COOKIE), query(location)
                    .get("state")).orElseThrow();
            cookies.put(ConsoleSignInRoutes.LOGIN_COOKIE, new SignInCookie(Seal.load(new SealKeyStore(kernel.jdbc())))
                    .seal(alter.apply(pending)));
            return follow(HttpRequest.newBuilder(URI.create(location)).build());
        }

        /** Signs in as {@code username} on Keycloak's {@code form}; returns the callback URL Keycloak sends back to. */
        URI callbackAfterLogin(HttpResponse<String> form, String username) throws Exception {
            Element f = Jsoup.parse(form.body(), form.uri().toString()).getElementById("kc-form-login");
            assertThat(f).as("Keycloak's login form at " + form.uri()).isNotNull();
            String body = "username=" + username + "&password=" + URLEncoder.encode(PASSWORD, StandardCharsets.UTF_8);
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(f.absUrl("action")))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(302);
            URI callback = r.uri().resolve(r.headers().firstValue("Location").orElseThrow());
            assertThat(callback.toString()).startsWith(kernel.url() + "/ui/callback?");
            return callback;
        }

        HttpResponse<String> follow(HttpRequest req) throws Exception {
            HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
            for (int hops = 0; hops < 10 && r.statusCode() / 100 == 3; hops++) {
                URI next = r.uri().resolve(r.headers().firstValue("Location").orElseThrow());
                r = http.send(HttpRequest.newBuilder(next).build(), HttpResponse.BodyHandlers.ofString());
            }
            assertThat(r.statusCode()).as(r.uri() + ": " + r.body()).isEqualTo(200);
            return r;
        }

        @Override
        public void close() {
            http.close();
        }
    }
}
