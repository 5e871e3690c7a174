package dev.backplane.kernel.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.app.Kernel;
import dev.backplane.kernel.app.KernelConfig;
import dev.backplane.kernel.app.Setting;
import dev.backplane.kernel.persistence.Jdbc;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * A real kernel on a free loopback port, with an HTTP client for tests; every exchange of {@link #send} is held to the
 * kernel's OpenAPI document ({@link ApiContract}).
 */
public final class TestKernel implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path dataDir;
    private final Map<String, String> env;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private volatile Kernel kernel;

    private TestKernel(Path dataDir, Map<String, String> env) {
        this.dataDir = dataDir;
        this.env = Map.copyOf(env);
        this.kernel = boot();
    }

    /**
     * The settings most tests start a kernel with: tokens from {@code issuer}, connector plugins from
     * {@code pluginDir}, and targets on loopback allowed by the SSRF guard. Mutable, to add more.
     */
    public static Map<String, String> settings(TestIssuer issuer, Path pluginDir) {
        Map<String, String> env = new java.util.HashMap<>(issuer.kernelSettings());
        env.put("SVC_PLUGIN_DIR", pluginDir.toString());
        env.put("SVC_TARGET_SSRF_ALLOWLIST", "127.0.0.0/8");
        return env;
    }

    /** Starts a kernel with settings given by environment-variable name (e.g. SVC_DB_URL). */
    public static TestKernel start(Path dataDir, Map<String, String> env) {
        return new TestKernel(dataDir, env);
    }

    private Kernel boot() {
        Map<Setting, String> settings = new EnumMap<>(Setting.class);
        settings.put(Setting.SERVER_PORT, "0");
        settings.put(Setting.DATA_DIR, dataDir.toString());
        // tests kill processes (the kernel, PostgreSQL), never the machine: without fsync no commit is lost to that
        settings.put(Setting.DB_EMBEDDED_FSYNC, "false");
        env.forEach((name, value) -> settings.put(Arrays.stream(Setting.values())
                .filter(s -> s.envVar().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no setting " + name)), value));
        return Kernel.start(KernelConfig.of(settings));
    }

    /**
     * Closes the kernel, runs {@code whileDown} (e.g. to replace a plugin jar), and starts a new kernel on
     * the same data directory with the same settings (on a new port).
     */
    public void restart(Runnable whileDown) {
        kernel.close();
        whileDown.run();
        kernel = boot();
    }

    public Kernel kernel() {
        return kernel;
    }

    public Path dataDir() {
        return dataDir;
    }

    /** The directory the kernel loads plugins from (SVC_PLUGIN_DIR). */
    public Path pluginDir() {
        return Path.of(env.get("SVC_PLUGIN_DIR"));
    }

    /** JDBC on the kernel's own database. */
    public Jdbc jdbc() {
        return new Jdbc(kernel.database().dataSource());
    }

    /** The {@code svc} CLI pointed at this kernel with {@code token}, its config in a new temporary directory. */
    public CliRunner cli(String token) {
        return cli(TempDirs.create("svc-cli"), token);
    }

    /** The {@code svc} CLI pointed at this kernel with {@code token}, its config in {@code home}. */
    public CliRunner cli(Path home, String token) {
        return new CliRunner(home).env("SVC_TOKEN", token).env("SVC_BACKPLANE", url())
                .env("SVC_INSECURE_ALLOW_HTTP", "1");
    }

    public String url() {
        return kernel.url();
    }

    /** A response with its body parsed when it is JSON. */
    public record Response(int status, Map<String, java.util.List<String>> headers, String body) {
        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON (HTTP " + status + "): " + body, e);
            }
        }

        public Optional<String> header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .flatMap(e -> e.getValue().stream()).findFirst();
        }
    }

    public Response get(String path, String token) {
        return send("GET", path, token, null, Map.of());
    }

    /** POST with {@code body} as JSON: {@code null} for none, a String as it is, anything else serialized. */
    public Response post(String path, String token, Object body) {
        return send("POST", path, token, json(body), Map.of());
    }

    /** PUT with {@code body} as JSON, as {@link #post}. */
    public Response put(String path, String token, Object body) {
        return send("PUT", path, token, json(body), Map.of());
    }

    /** PATCH with {@code body} as JSON, as {@link #post}. */
    public Response patch(String path, String token, Object body) {
        return send("PATCH", path, token, json(body), Map.of());
    }

    public Response delete(String path, String token) {
        return send("DELETE", path, token, null, Map.of());
    }

    private static String json(Object body) {
        try {
            return body == null ? null : body instanceof String s ? s : JSON.writeValueAsString(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Polls agent run {@code handle} until its status is one of {@code statuses}; fails after {@code within}. */
    public JsonNode awaitAgentRun(String token, String handle, Duration within, String... statuses)
            throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        JsonNode run = null;
        while (System.nanoTime() < deadline) {
            run = get("/api/v1/agent-runs/" + handle, token).json();
            if (Arrays.asList(statuses).contains(run.path("status").asText())) {
                return run;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("run " + handle + " never reached " + Arrays.asList(statuses) + ": " + run);
    }

    /** Registers a target ({@code POST /api/v1/targets}) and expects 201. */
    public Response registerTarget(String token, Object body) {
        Response r = post("/api/v1/targets", token, body);
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        return r;
    }

    /** Stages a target's credential ({@code PUT /api/v1/targets/{name}/secret}) and expects 200. */
    public Response stageSecret(String token, String target, Map<String, String> fields) {
        Response r = put("/api/v1/targets/" + target + "/secret", token, Map.of("fields", fields));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r;
    }

    /** Enables a connector's read operations, then the connector, expecting 200 for both. */
    public void enableConnector(String token, String connectorId) {
        assertThat(post("/api/v1/connectors/" + connectorId + "/enable-reads", token, null).status()).isEqualTo(200);
        assertThat(post("/api/v1/connectors/" + connectorId + "/enable", token, null).status()).isEqualTo(200);
    }

    public Response send(String method, String path, String token, String jsonBody, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(30));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        headers.forEach(b::header);
        if (jsonBody != null) {
            b.header("Content-Type", "application/json");
        }
        b.method(method, jsonBody == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(jsonBody));
        try {
            // a GET answered with an endless event stream (the broadcast feed) is read to its first block; a POST's
            // stream (agent run events) ends with its run and is read whole
            HttpResponse<String> r = method.equals("GET") ? EventStreams.send(http, b.build())
                    : http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            Response response = new Response(r.statusCode(), r.headers().map(), r.body());
            ApiContract.verify(new ApiContract.Exchange(method, path, jsonBody, response.status(),
                    response.header("Content-Type").orElse(null), response.body()));
            return response;
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + path + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        kernel.close();
        http.close();
    }
}
