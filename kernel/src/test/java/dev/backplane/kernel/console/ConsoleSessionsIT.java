package dev.backplane.kernel.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.Fixtures;
import dev.backplane.kernel.testing.KeycloakServer;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestKernel;
import java.net.CookieHandler;
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
import java.util.concurrent.ConcurrentHashMap;
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
 * browser needed): anonymous sign-in starts cannot lock anybody out and write nothing to the database, and a session
 * follows the identity provider within {@code console.revalidate-seconds} (here 2 s): a disabled user's session ends,
 * a demoted user's session loses the rights at once.
 */
class ConsoleSessionsIT {

    static final String REALM = "svc";
    static final UUID TENANT = UUID.randomUUID();
    static final String PASSWORD = "pw-" + UUID.randomUUID();
    static final int REVALIDATE_SECONDS = 2;

    static Path work;
    static KeycloakServer keycloak;
    static TestKernel kernel;

    @BeforeAll
    static void start() throws Exception {
        work = TempDirs.create("svc-console-sessions");
        keycloak = KeycloakServer.start(work);
        kernel = TestKernel.start(work.resolve("kernel"), Map.of(
                "SVC_IDENTITY_ISSUER", keycloak.url() + "/realms/" + REALM,
                "SVC_CONSOLE_REVALIDATE_SECONDS", String.valueOf(REVALIDATE_SECONDS)));
        CliRunner admin = new CliRunner(work.resolve("admin-config"))
                .env("KEYCLOAK_ADMIN_USER", KeycloakServer.ADMIN)
                .env("KEYCLOAK_ADMIN_PASSWORD", keycloak.adminPassword())
                .env("SVC_BOOTSTRAP_USER_PASSWORD", PASSWORD);
        for (String user : List.of("carol", "bob", "alice")) {
            CliRunner.Result r = admin.run("admin", "idp", "bootstrap-clients", "--keycloak-base-url", keycloak.url(),
                    "--realm", REALM, "--console-url", kernel.url(), "--admin-user-username", user,
                    "--tenant-id", TENANT.toString(), "--tenant-role", "tenant_admin");
            assertThat(r.exitCode()).as(r.toString()).isZero();
        }
    }

    @AfterAll
    static void stop() {
        Fixtures.closeAll(kernel, keycloak);
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
            assertThat(row).as("kept sealed: no JWT in the row").doesNotContain("eyJ");

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
    static final class Browser extends CookieHandler implements AutoCloseable {
        final Map<String, String> cookies = new ConcurrentHashMap<>();
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
            return http.send(HttpRequest.newBuilder(URI.create(kernel.url() + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
        }

        private HttpResponse<String> follow(HttpRequest req) throws Exception {
            HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
            for (int hops = 0; hops < 10 && r.statusCode() / 100 == 3; hops++) {
                URI next = r.uri().resolve(r.headers().firstValue("Location").orElseThrow());
                r = http.send(HttpRequest.newBuilder(next).build(), HttpResponse.BodyHandlers.ofString());
            }
            assertThat(r.statusCode()).as(r.uri() + ": " + r.body()).isEqualTo(200);
            return r;
        }

        @Override
        public Map<String, List<String>> get(URI uri, Map<String, List<String>> headers) {
            if (cookies.isEmpty()) {
                return Map.of();
            }
            return Map.of("Cookie", List.of(cookies.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                    .collect(Collectors.joining("; "))));
        }

        @Override
        public void put(URI uri, Map<String, List<String>> headers) {
            headers.forEach((name, values) -> {
                if (name != null && name.equalsIgnoreCase("Set-Cookie")) {
                    for (String v : values) {
                        String pair = v.split(";", 2)[0];
                        int eq = pair.indexOf('=');
                        if (eq > 0) {
                            String value = pair.substring(eq + 1).trim();
                            if (value.isEmpty() || v.contains("Max-Age=0")) {
                                cookies.remove(pair.substring(0, eq).trim());
                            } else {
                                cookies.put(pair.substring(0, eq).trim(), value);
                            }
                        }
                    }
                }
            });
        }

        @Override
        public void close() {
            http.close();
        }
    }
}
