package dev.backplane.kernel.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.app.Kernel;
import dev.backplane.kernel.app.KernelConfig;
import dev.backplane.kernel.app.Setting;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/** A real kernel on a free loopback port, with an HTTP client for tests. */
public final class TestKernel implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Kernel kernel;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private TestKernel(Kernel kernel) {
        this.kernel = kernel;
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
        Map<Setting, String> settings = new EnumMap<>(Setting.class);
        settings.put(Setting.SERVER_PORT, "0");
        settings.put(Setting.DATA_DIR, dataDir.toString());
        env.forEach((name, value) -> settings.put(Arrays.stream(Setting.values())
                .filter(s -> s.envVar().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no setting " + name)), value));
        return new TestKernel(Kernel.start(KernelConfig.of(settings)));
    }

    public Kernel kernel() {
        return kernel;
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
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new Response(r.statusCode(), r.headers().map(), r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
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
