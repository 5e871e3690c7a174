package dev.backplane.kernel.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.testing.KernelTest;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What the MCP server tells an agent before it acts, as a client receives it in every revision: SPEC's
 * search-before-write rule in the write tools' descriptions and in the instructions ({@code initialize} of the
 * handshake revisions, {@code server/discover} of 2026-07-28), and the feature-maturity index as the resource
 * {@code svc://features} (the document {@code GET /api/v1/features} serves) with SPEC's labels in the instructions.
 */
@KernelTest
class McpGuidanceIT {

    /** SPEC, "Which store": the rule, word for word. */
    private static final String RULE = "before adding, search first; if a matching entry exists, read it, merge and "
            + "re-add under the same slug rather than creating a near-duplicate slug";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final UUID TENANT = UUID.randomUUID();
    private static final String META = "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
    private static TestIssuer issuer;
    private static TestKernel kernel;

    private static JsonNode stateless(String token, String method, String params, String name) throws Exception {
        Map<String, String> headers = new LinkedHashMap<>(Map.of("MCP-Protocol-Version", "2026-07-28",
                "Mcp-Method", method));
        if (name != null) {
            headers.put("Mcp-Name", name);
        }
        var r = McpFixture.post(kernel, token, "{\"jsonrpc\":\"2.0\",\"id\":\"g\",\"method\":\"" + method
                + "\",\"params\":{" + params + (params.isEmpty() ? "" : ",") + "\"_meta\":" + META + "}}", headers);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body()).path("result");
    }

    private static Map<String, String> descriptions(JsonNode tools) {
        Map<String, String> d = new LinkedHashMap<>();
        tools.forEach(t -> d.put(t.path("name").asText(), t.path("description").asText()));
        return d;
    }

    @Test
    void theSearchBeforeWriteRuleReachesAHandshakeClient() {
        String token = issuer.mcpToken("guided-admin", TENANT, "tenant_admin");
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(kernel.url())
                .endpoint("/mcp").httpRequestCustomizer((b, method, uri, body, context) ->
                        b.header("Authorization", "Bearer " + token)).build();
        try (McpSyncClient c = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build()) {
            McpSchema.InitializeResult init = c.initialize();
            assertThat(init.instructions()).contains(RULE).contains("search_memory").contains("search_knowledge");
            Map<String, String> d = new LinkedHashMap<>();
            c.listTools().tools().forEach(t -> d.put(t.name(), t.description()));
            assertThat(d.get("add_to_memory")).contains(RULE).contains("search_memory");
            assertThat(d.get("add_to_knowledge")).contains(RULE).contains("search_knowledge");
            assertThat(d.get("search_memory")).doesNotContain(RULE);
        }
    }

    @Test
    void theSearchBeforeWriteRuleReachesAStatelessClient() throws Exception {
        String token = issuer.mcpToken("guided-stateless", TENANT, "tenant_admin");
        assertThat(stateless(token, "server/discover", "", null).path("instructions").asText()).contains(RULE);
        Map<String, String> d = descriptions(stateless(token, "tools/list", "", null).path("tools"));
        assertThat(d.get("add_to_memory")).contains(RULE);
        assertThat(d.get("add_to_knowledge")).contains(RULE);
        Map<String, String> operator = descriptions(stateless(issuer.mcpToken("guided-op", TENANT, "operator"),
                "tools/list", "", null).path("tools"));
        assertThat(operator).doesNotContainKey("add_to_knowledge");
        assertThat(operator.get("add_to_memory")).contains(RULE);
    }

    @Test
    void theFeatureIndexIsAResourceAndItsSpecLabelsAreInTheInstructions() throws Exception {
        String token = issuer.mcpToken("guided-reader", TENANT, "read_only");
        JsonNode listed = stateless(token, "resources/list", "", null).path("resources");
        assertThat(listed.findValuesAsText("uri")).contains("svc://features");
        JsonNode read = stateless(token, "resources/read", "\"uri\":\"svc://features\"", "svc://features")
                .path("contents").get(0);
        assertThat(read.path("mimeType").asText()).isEqualTo("application/json");
        var rest = kernel.get("/api/v1/features", issuer.token("guided-rest", TENANT, "read_only"));
        assertThat(rest.status()).as(rest.body()).isEqualTo(200);
        assertThat(JSON.readTree(read.path("text").asText())).as("the same index as REST").isEqualTo(rest.json());

        String instructions = stateless(token, "server/discover", "", null).path("instructions").asText();
        assertThat(instructions).contains("memory, kb are GA").contains("docs is experimental")
                .contains("scheduler is Beta").contains("svc://features");

        JsonNode legacy = JSON.readTree(McpFixture.post(kernel, token, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
                + "\"resources/read\",\"params\":{\"uri\":\"svc://features\"}}", Map.of()).body());
        assertThat(JSON.readTree(legacy.path("result").path("contents").get(0).path("text").asText()))
                .as("the handshake revisions read it too").isEqualTo(rest.json());
    }
}
