package dev.backplane.kernel.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.testing.TestKernel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

/** What the MCP integration tests share: a raw POST to {@code /mcp} and a fixture connector's target. */
final class McpFixture {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private McpFixture() {
    }

    /** One JSON-RPC message POSTed as a Streamable HTTP client does (it accepts JSON and a stream). */
    static HttpResponse<String> post(TestKernel kernel, String token, String body, Map<String, String> headers)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(kernel.url() + "/mcp"))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        headers.forEach(b::header);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Target {@code t1} of {@code product} on a loopback port with its credential, the fixture connector
     * {@code <product>-1.x} enabled, and its {@code item5.delete} enabled as a caution operation that needs approval.
     */
    static void target(TestKernel kernel, String admin, String product, int port, String password) {
        kernel.registerTarget(admin, Map.of("name", "t1", "product", product, "host", "127.0.0.1",
                "port", port, "extras", Map.of("scheme", "http")));
        kernel.stageSecret(admin, "t1", Map.of("username", "svc", "password", password));
        kernel.enableConnector(admin, product + "-1.x");
        assertThat(kernel.patch("/api/v1/connectors/" + product + "-1.x/operations/" + product + ".item5.delete", admin,
                "{\"is_enabled\": true, \"safety_level\": \"caution\"}").status()).isEqualTo(200);
    }
}
