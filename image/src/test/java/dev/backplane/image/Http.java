package dev.backplane.image;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** The small HTTP and waiting helpers the container drills share: JSON in, status and body out. */
final class Http {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private Http() {
    }

    /** A condition polled by {@link #awaitTrue}; it may throw while the thing it waits for is not there yet. */
    interface Check {
        boolean ok() throws Exception;
    }

    /** Sends {@code body} as JSON (none when null) with {@code token} as bearer (none when null). */
    static HttpResponse<String> send(String method, String url, String token, Object body)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").method(method, body == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        Optional.ofNullable(token).ifPresent(t -> b.header("Authorization", "Bearer " + t));
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Sends a request built by the caller (other headers, a raw body). */
    static HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** The status of the request, or -1 when nothing answered. */
    static int status(String method, String url, String token, Object body) {
        try {
            return send(method, url, token, body).statusCode();
        } catch (IOException | InterruptedException e) {
            return -1;
        }
    }

    static HttpResponse<String> expect(int status, HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.request().method() + " " + r.uri() + ": " + r.body()).isEqualTo(status);
        return r;
    }

    /** The body of a response that had {@code status}, parsed. */
    static JsonNode json(int status, HttpResponse<String> r) throws IOException {
        return JSON.readTree(expect(status, r).body());
    }

    /**
     * Registers target {@code name} of the drills' test connector (product {@code rep}) at a loopback HTTP server's
     * {@code port} through the backplane at {@code base}, and stages its basic-auth secret (into Vault).
     */
    static void registerLoopbackTarget(String base, String token, String name, int port) throws Exception {
        expect(201, send("POST", base + "/api/v1/targets", token, Map.of("name", name, "product", "rep",
                "host", "127.0.0.1", "port", port, "extras", Map.of("scheme", "http"))));
        expect(200, send("PUT", base + "/api/v1/targets/" + name + "/secret", token, Map.of("fields",
                Map.of("username", "u", "password", "p-123456"))));
    }

    static void awaitTrue(String what, Check check, int seconds) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        while (!check.ok()) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
