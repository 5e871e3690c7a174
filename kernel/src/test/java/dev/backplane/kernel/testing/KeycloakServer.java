package dev.backplane.kernel.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * A real Keycloak (the official distribution from Maven Central, unpacked by the build into the
 * cache directory) started in dev mode on a free loopback port, with its database in a temp dir.
 */
public final class KeycloakServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    public static final String ADMIN = "admin";

    private final Process process;
    private final int port;
    private final String adminPassword;
    private final Path log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private KeycloakServer(Process process, int port, String adminPassword, Path log) {
        this.process = process;
        this.port = port;
        this.adminPassword = adminPassword;
        this.log = log;
    }

    public static KeycloakServer start(Path dataDir) throws IOException, InterruptedException {
        Path home = Path.of(System.getProperty("svc.keycloak.home",
                System.getProperty("user.home") + "/.cache/svc/keycloak"));
        if (!Files.isRegularFile(home.resolve("bin/kc.sh"))) {
            throw new IllegalStateException("Keycloak is not unpacked at " + home + "; run the tests through Maven "
                    + "(mvn verify unpacks org.keycloak:keycloak-quarkus-dist into the cache)");
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String password = "kc-" + UUID.randomUUID();
        Path log = dataDir.resolve("keycloak.log");
        ProcessBuilder pb = new ProcessBuilder("bash", home.resolve("bin/kc.sh").toString(), "start-dev",
                "--http-port=" + port, "--http-host=127.0.0.1", "--db=dev-file",
                "--db-url=jdbc:h2:file:" + dataDir.resolve("keycloakdb") + ";NON_KEYWORDS=VALUE")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Map<String, String> env = pb.environment();
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("KC_BOOTSTRAP_ADMIN_USERNAME", ADMIN);
        env.put("KC_BOOTSTRAP_ADMIN_PASSWORD", password);
        env.put("JAVA_OPTS_KC_HEAP", "-Xms128m -Xmx1g");
        env.put("JAVA_OPTS_APPEND", "-Dquarkus.transaction-manager.object-store.directory=" + dataDir.resolve("tx"));
        KeycloakServer kc = new KeycloakServer(pb.start(), port, password, log);
        kc.awaitReady(Duration.ofMinutes(4));
        return kc;
    }

    private void awaitReady(Duration timeout) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Keycloak exited with " + process.exitValue() + ":\n" + logTail());
            }
            try {
                if (http.send(HttpRequest.newBuilder(URI.create(url() + "/realms/master")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(500);
        }
        close();
        throw new IllegalStateException("Keycloak did not become ready in " + timeout + ":\n" + logTail());
    }

    public String logTail() throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    public String adminPassword() {
        return adminPassword;
    }

    /** A password-grant token from {@code realm}'s admin-cli client (a client without our mappers). */
    public JsonNode passwordGrant(String realm, String username, String password) throws Exception {
        return form(url() + "/realms/" + realm + "/protocol/openid-connect/token", Map.of("grant_type", "password",
                "client_id", "admin-cli", "username", username, "password", password));
    }

    public JsonNode form(String url, Map<String, String> form) throws Exception {
        String body = form.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body());
    }

    /** Calls the admin REST API as the bootstrap administrator. */
    public HttpResponse<String> admin(String method, String path, Object body) throws Exception {
        String token = passwordGrant("master", ADMIN, adminPassword).path("access_token").asText();
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url() + "/admin/realms" + path))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json");
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    public JsonNode adminJson(String path) throws Exception {
        return JSON.readTree(admin("GET", path, null).body());
    }

    /**
     * Approves a device login the way a person would in a browser: open the verification page, sign
     * in on Keycloak's own login form, accept the consent form.
     */
    public void approveDevice(String verificationUrl, String username, String password) throws Exception {
        try (HttpClient browser = HttpClient.newBuilder().cookieHandler(new LoopbackCookieJar())
                .followRedirects(HttpClient.Redirect.ALWAYS).build()) {
            HttpResponse<String> page = browser.send(HttpRequest.newBuilder(URI.create(verificationUrl)).build(),
                    HttpResponse.BodyHandlers.ofString());
            Document login = Jsoup.parse(page.body(), page.uri().toString());
            Element form = login.getElementById("kc-form-login");
            if (form == null) {
                throw new IllegalStateException("no login form at " + page.uri() + ":\n" + page.body());
            }
            page = post(browser, form.absUrl("action"), Map.of("username", username, "password", password));
            Document next = Jsoup.parse(page.body(), page.uri().toString());
            Element consent = next.selectFirst("form[action*=login-actions/consent]");
            if (consent != null) {
                page = post(browser, consent.absUrl("action"), Map.of("code", consent.selectFirst("input[name=code]")
                        .val(), "accept", "Yes"));
            }
            if (!page.body().contains("Device Login Successful")) {
                throw new IllegalStateException("device approval did not succeed at " + page.uri() + ":\n"
                        + Jsoup.parse(page.body()).text());
            }
        }
    }

    private static HttpResponse<String> post(HttpClient browser, String url, Map<String, String> form) throws Exception {
        String body = form.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
        return browser.send(HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        http.close();
    }
}
