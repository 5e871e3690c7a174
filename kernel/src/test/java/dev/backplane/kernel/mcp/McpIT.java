package dev.backplane.kernel.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.KernelTest;
import dev.backplane.kernel.testing.LoopbackTarget;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code /mcp} against a running kernel: the official MCP Java SDK client for the handshake
 * revisions, raw HTTP for the stateless 2026-07-28 revision (no SDK speaks it yet), the OAuth
 * protected-resource discovery, and a fuzz corpus of malformed messages.
 */
@KernelTest
class McpIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PASSWORD = "mcp-target-" + UUID.randomUUID();
    private static LoopbackTarget target;
    private static TestIssuer issuer;
    private static TestKernel kernel;
    private static final UUID TENANT = UUID.randomUUID();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeKernel
    static void start(KernelSetup setup) {
        target = LoopbackTarget.basicAuthItems(setup, "svc", PASSWORD, x -> { });
        setup.plugin(TestPlugins.connector("mcpx", "1.x").product("mcpx").ranges("*").operations(6).httpProbe(false));
    }

    @BeforeAll
    static void targetAndConnector() {
        McpFixture.target(kernel, issuer.token("admin", TENANT, "tenant_admin"), "mcpx", target.port(),
                PASSWORD);
    }

    private static McpSyncClient sdkClient(String token) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(kernel.url())
                .endpoint("/mcp")
                .httpRequestCustomizer((builder, method, uri, body, context) ->
                        builder.header("Authorization", "Bearer " + token))
                .build();
        // the SDK's own default schema validator (json-schema-validator 2.x, the kernel's version too)
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build();
        client.initialize();
        return client;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> structured(McpSchema.CallToolResult r) {
        return (Map<String, Object>) r.structuredContent();
    }

    private static McpSchema.CallToolResult call(McpSyncClient c, String tool, Map<String, Object> args) {
        return c.callTool(new McpSchema.CallToolRequest(tool, args));
    }

    @Test
    @SuppressWarnings("unchecked")
    void theSdkClientFindsPreviewsCallsAndQueriesThroughTheGate() {
        String sub = "agent-user-" + UUID.randomUUID();
        try (McpSyncClient c = sdkClient(issuer.mcpToken(sub, TENANT, "operator"))) {
            List<String> names = c.listTools().tools().stream().map(McpSchema.Tool::name).toList();
            assertThat(names).containsExactly("add_to_memory", "search_memory", "search_knowledge", "search_docs",
                    "ask_docs", "list_doc_collections", "list_targets",
                    "svc_connector_list", "list_operation_groups", "search_operations", "preview_operation",
                    "call_operation", "result_query");
            assertThat(c.listTools().tools()).allSatisfy(t -> {
                assertThat(t.description()).hasSizeGreaterThan(40);
                assertThat(t.inputSchema()).containsEntry("type", "object");
            });

            assertThat(structured(call(c, "list_targets", Map.of())).toString()).contains("t1");
            Map<String, Object> hits = structured(call(c, "search_operations", Map.of("connector_id", "mcpx-1.x",
                    "query", "list items")));
            assertThat(hits.toString()).contains("mcpx.item0.list");

            Map<String, Object> preview = structured(call(c, "preview_operation", Map.of("connector_id", "mcpx-1.x",
                    "op_id", "mcpx.item0.list", "target", "t1", "params", Map.of("count", 120))));
            assertThat(preview.get("status")).isEqualTo("ok");
            assertThat(((Map<String, Object>) preview.get("result")).get("preview_hash").toString()).startsWith("sha256:");

            McpSchema.CallToolResult big = call(c, "call_operation", Map.of("connector_id", "mcpx-1.x",
                    "op_id", "mcpx.item0.list", "target", "t1", "params", Map.of("count", 120), "work_ref", "CHG-7"));
            assertThat(big.isError()).isFalse();
            Map<String, Object> env = structured(big);
            assertThat(env.get("status")).isEqualTo("ok");
            Map<String, Object> extras = (Map<String, Object>) env.get("extras");
            assertThat(extras.get("total_rows")).isEqualTo(120);
            String handle = ((Map<String, Object>) ((Map<String, Object>) extras.get("fetch_more")).get("drill_in"))
                    .get("handle_id").toString();
            Map<String, Object> page = structured(call(c, "result_query", Map.of("handle_id", handle, "offset", 100)));
            assertThat(page.get("returned_rows")).isEqualTo(20);
            Map<String, Object> counted = structured(call(c, "result_query", Map.of("handle_id", handle, "query",
                    Map.of("group_by", List.of("even"), "aggregates", List.of(Map.of("fn", "COUNT"))))));
            assertThat((List<Object>) counted.get("rows")).hasSize(2);

            Map<String, Object> parked = structured(call(c, "call_operation", Map.of("connector_id", "mcpx-1.x",
                    "op_id", "mcpx.item5.delete", "target", "t1", "params", Map.of("name", "x"))));
            assertThat(parked.get("status")).isEqualTo("awaiting_approval");
            assertThat(((Map<String, Object>) parked.get("extras")).get("approval_request_id")).isNotNull();

            McpError bare = catchThrowableOfType(McpError.class, () -> call(c, "list_operation_groups",
                    Map.of("connector_id", "mcpx")));
            assertThat(bare.getJsonRpcError().code()).isEqualTo(-32602);
            assertThat(bare.getJsonRpcError().data().toString()).contains("unknown_connector").contains("mcpx-1.x");
            McpError unknownTool = catchThrowableOfType(McpError.class, () -> call(c, "register_target", Map.of()));
            assertThat(unknownTool.getJsonRpcError().code()).as("no tool registers targets").isEqualTo(-32602);
            McpSchema.CallToolResult missing = call(c, "call_operation", Map.of("connector_id", "mcpx-1.x",
                    "op_id", "mcpx.item0.list", "target", "nope"));
            assertThat(missing.isError()).as("an unknown target is a tool error the agent reads").isTrue();
            assertThat(missing.content().toString()).contains("target_not_found");
        }
        Jdbc jdbc = kernel.jdbc();
        List<String> rows = jdbc.query("SELECT op_id || ':' || principal_kind || ':' || result_status FROM audit_rows "
                + "WHERE principal = ? ORDER BY occurred_at", rs -> rs.getString(1), sub);
        assertThat(rows).contains("mcp.list_targets:user-agent:ok", "mcp.search_operations:user-agent:ok",
                "mcpx.item0.list:user-agent:ok", "mcpx.item5.delete:user-agent:awaiting_approval");
    }

    @Test
    void toolsACallerMayNotUseAreNotListed() {
        try (McpSyncClient c = sdkClient(issuer.mcpToken("reader", TENANT, "read_only"))) {
            List<String> names = c.listTools().tools().stream().map(McpSchema.Tool::name).toList();
            assertThat(names).containsExactly("search_memory", "search_knowledge", "search_docs", "ask_docs",
                    "list_doc_collections", "list_targets", "svc_connector_list", "list_operation_groups",
                    "search_operations");
            McpError e = catchThrowableOfType(McpError.class, () -> call(c, "call_operation", Map.of("connector_id",
                    "mcpx-1.x", "op_id", "mcpx.item0.list", "target", "t1")));
            assertThat(e.getJsonRpcError().code()).isEqualTo(-32602);
        }
    }

    private static HttpResponse<String> post(String token, String body, Map<String, String> headers) throws Exception {
        return McpFixture.post(kernel, token, body, headers);
    }

    @Test
    void anUnauthenticatedClientIsPointedAtTheProtectedResourceMetadata() throws Exception {
        var r = post(null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", Map.of());
        assertThat(r.statusCode()).isEqualTo(401);
        String header = r.headers().firstValue("WWW-Authenticate").orElseThrow();
        assertThat(header).startsWith("Bearer resource_metadata=\"");
        String url = header.replaceAll(".*resource_metadata=\"([^\"]+)\".*", "$1");
        assertThat(url).endsWith("/.well-known/oauth-protected-resource/mcp");
        JsonNode meta = JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString()).body());
        assertThat(meta.path("resource").asText()).isEqualTo(TestIssuer.MCP_AUDIENCE);
        assertThat(meta.path("authorization_servers").get(0).asText()).isEqualTo(TestIssuer.ISSUER);
        assertThat(meta.path("scopes_supported").toString()).contains("svc:mcp");
        assertThat(kernel.get("/.well-known/oauth-protected-resource", null).json()).isEqualTo(meta);

        assertThat(post(issuer.token("rest", TENANT, "operator"), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
                Map.of()).statusCode()).as("a REST-audience token is not an MCP token").isEqualTo(401);
        String noScope = issuer.token(c -> c.subject("s").audience(TestIssuer.MCP_AUDIENCE).claim("azp", "svc-mcp")
                .claim("tenant_id", TENANT.toString()).claim("tenant_role", "operator").claim("scope", "openid"));
        var scoped = post(noScope, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", Map.of());
        assertThat(scoped.statusCode()).as("the advertised scope is enforced").isEqualTo(403);
        assertThat(scoped.headers().firstValue("WWW-Authenticate").orElseThrow()).contains("insufficient_scope");
        assertThat(kernel.get("/api/v1/whoami", issuer.mcpToken("x", TENANT, "operator")).status())
                .as("and an MCP token is not a REST token").isEqualTo(401);
        assertThat(HTTP.send(HttpRequest.newBuilder(URI.create(kernel.url() + "/mcp")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(405);
    }

    /** S15: the metadata URL comes from the configured public URL or the listener, never from the request's Host. */
    @Test
    void theMetadataUrlNeverReflectsTheRequestsHost() throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}";
        URI url = URI.create(kernel.url());
        for (String token : java.util.Arrays.asList(null, "not-a-jwt")) {
            try (java.net.Socket socket = new java.net.Socket(url.getHost(), url.getPort())) {
                socket.setSoTimeout(10_000);
                String request = "POST /mcp HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json\r\n"
                        + "Accept: application/json, text/event-stream\r\n"
                        + (token == null ? "" : "Authorization: Bearer " + token + "\r\n")
                        + "Content-Length: " + body.length() + "\r\nConnection: close\r\n\r\n" + body;
                socket.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(
                        socket.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
                List<String> head = new java.util.ArrayList<>();
                for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                    head.add(line);
                }
                assertThat(head.getFirst()).startsWith("HTTP/1.1 401");
                String header = head.stream().filter(l -> l.regionMatches(true, 0, "WWW-Authenticate:", 0, 17))
                        .findFirst().orElseThrow();
                assertThat(header).doesNotContain("evil.example")
                        .contains("resource_metadata=\"" + kernel.url() + "/.well-known/oauth-protected-resource/mcp\"");
            }
        }
    }

    private static Map<String, String> stateless(String method, String name) {
        Map<String, String> h = new LinkedHashMap<>(Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", method));
        if (name != null) {
            h.put("Mcp-Name", name);
        }
        return h;
    }

    private static String statelessBody(String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":\"r1\",\"method\":\"" + method + "\",\"params\":{" + params
                + (params.isEmpty() ? "" : ",") + "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
    }

    @Test
    void theStateless20260728RevisionIsServedOnTheSameEndpoint() throws Exception {
        String token = issuer.mcpToken("stateless-agent", TENANT, "operator");
        var discover = post(token, statelessBody("server/discover", ""), stateless("server/discover", null));
        assertThat(discover.statusCode()).as(discover.body()).isEqualTo(200);
        JsonNode d = JSON.readTree(discover.body()).path("result");
        assertThat(d.path("supportedVersions").toString()).contains("2026-07-28").contains("2025-11-25");
        assertThat(d.path("resultType").asText()).isEqualTo("complete");
        assertThat(d.path("capabilities").has("tools")).isTrue();

        var list = post(token, statelessBody("tools/list", ""), stateless("tools/list", null));
        assertThat(JSON.readTree(list.body()).path("result").path("tools").size()).isEqualTo(13);
        var called = post(token, statelessBody("tools/call", "\"name\":\"list_targets\",\"arguments\":{}"),
                stateless("tools/call", "list_targets"));
        JsonNode result = JSON.readTree(called.body()).path("result");
        assertThat(result.path("structuredContent").toString()).contains("t1");
        assertThat(result.path("resultType").asText()).isEqualTo("complete");

        assertThat(post(token, statelessBody("tools/call", "\"name\":\"list_targets\",\"arguments\":{}"),
                stateless("tools/call", "svc_connector_list")).statusCode()).as("Mcp-Name must match").isEqualTo(400);
        assertThat(post(token, statelessBody("tools/list", ""), stateless("tools/call", null)).statusCode())
                .as("Mcp-Method must match").isEqualTo(400);
        assertThat(post(token, statelessBody("tools/list", ""), Map.of()).statusCode())
                .as("the version header is required").isEqualTo(400);
        var init = post(token, statelessBody("initialize", ""), stateless("initialize", null));
        assertThat(JSON.readTree(init.body()).path("error").path("code").asInt()).isEqualTo(-32601);

        var legacy = post(token, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2026-07-28\",\"capabilities\":{},\"clientInfo\":{\"name\":\"x\",\"version\":\"1\"}}}", Map.of());
        assertThat(JSON.readTree(legacy.body()).path("result").path("protocolVersion").asText())
                .as("a handshake asking for the stateless revision settles on the newest handshake revision")
                .isEqualTo("2025-11-25");
    }

    @Test
    void malformedMessagesGetJsonRpcErrorsNeverA5xxAndChangeNothing() throws Exception {
        String token = issuer.mcpToken("fuzzer", TENANT, "tenant_admin");
        Jdbc jdbc = kernel.jdbc();
        long auditBefore = jdbc.queryOne("SELECT count(*) FROM audit_rows", rs -> rs.getLong(1)).orElseThrow();
        long targetsBefore = jdbc.queryOne("SELECT count(*) FROM targets_targets", rs -> rs.getLong(1)).orElseThrow();
        List<String> bodies = new ArrayList<>(List.of("", "{", "[]", "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]",
                "null", "1", "\"x\"", "{}", "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}", "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":[1,2]}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"no/such\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"call_operation\",\"arguments\":\"rm -rf\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"call_operation\",\"arguments\":"
                        + "{\"connector_id\":\"mcpx-1.x\",\"op_id\":\"mcpx.item0.list\",\"target\":\"t1\",\"params\":\"x\"}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"result_query\",\"arguments\":"
                        + "{\"handle_id\":\"' OR 1=1; DROP TABLE audit_rows; --\"}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\"svc://kb/../../etc\"}}",
                "{\"jsonrpc\":\"2.0\",\"result\":{}}", "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                "\u0000\u0001garbage\uFFFF", "[".repeat(5000) + "]".repeat(5000), "x".repeat(1_100_000)));
        for (String body : bodies) {
            var r = post(token, body, Map.of());
            assertThat(r.statusCode()).as(body.length() > 80 ? body.substring(0, 80) : body).isLessThan(500);
            if (r.statusCode() != 202 && r.statusCode() != 413) {
                JsonNode j = JSON.readTree(r.body());
                assertThat(j.path("jsonrpc").asText()).isEqualTo("2.0");
                assertThat(j.has("error") || j.path("result").path("isError").asBoolean()).as(body).isTrue();
            }
        }
        String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
        for (Map<String, String> headers : List.of(Map.of("MCP-Protocol-Version", "1999-01-01"),
                Map.of("MCP-Protocol-Version", "2026-07-28"), Map.of("Origin", "https://evil.example"),
                Map.of("Content-Type", "text/plain"))) {
            var r = post(token, ping, headers);
            assertThat(r.statusCode()).as(headers.toString()).isBetween(200, 499);
        }
        String oversized = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\""
                + "x".repeat(1_100_000) + "\"}}";
        var declared = post(token, oversized, Map.of());
        assertThat(declared.statusCode()).isEqualTo(413);
        assertThat(JSON.readTree(declared.body()).path("error").path("message").asText()).contains("exceeds");
        try (java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1).build()) {
            byte[] bytes = oversized.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            var streamed = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(kernel.url() + "/mcp"))
                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(bytes)))
                    .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(streamed.statusCode()).as("a chunked message over the cap").isEqualTo(413);
        }
        assertThat(post(token, ping, Map.of("Origin", "https://evil.example")).statusCode()).isEqualTo(403);
        assertThat(post(token, ping, Map.of("Origin", "http://localhost:6274")).statusCode()).isEqualTo(200);
        long auditAfter = jdbc.queryOne("SELECT count(*) FROM audit_rows", rs -> rs.getLong(1)).orElseThrow();
        assertThat(auditAfter - auditBefore).as("only the two well-formed tool calls were audited (as errors)")
                .isLessThanOrEqualTo(2);
        assertThat(jdbc.queryOne("SELECT count(*) FROM targets_targets", rs -> rs.getLong(1)).orElseThrow())
                .isEqualTo(targetsBefore);
    }

    @Test
    void resourceTemplateArgumentsCompleteWithTheSdkClient() {
        UUID tenant = UUID.randomUUID();
        String admin = issuer.token("admin", tenant, "tenant_admin");
        for (String slug : List.of("pager-duty", "pager_rota", "patching", "zz-other")) {
            assertThat(kernel.send("POST", "/api/v1/kb", admin, "{\"slug\": \"" + slug + "\", \"body\": \"about "
                    + slug + "\"}", Map.of()).status()).isIn(200, 201);
        }
        String sub = "completer-" + UUID.randomUUID();
        String mine = issuer.token(sub, tenant, "operator");
        for (String[] m : new String[][] {{"tenant", "deploy-freeze"}, {"user-tenant", "deploy-prefs"}}) {
            var written = kernel.send("POST", "/api/v1/memory", m[0].equals("tenant") ? admin : mine, "{\"body\": \"b\", "
                    + "\"scope\": \"" + m[0] + "\", \"slug\": \"" + m[1] + "\"}", Map.of());
            assertThat(written.status()).as(written.body()).isEqualTo(201);
        }
        try (McpSyncClient c = sdkClient(issuer.mcpToken(sub, tenant, "operator"))) {
            assertThat(c.getServerCapabilities().completions()).isNotNull();
            var kb = c.completeCompletion(new McpSchema.CompleteRequest(new McpSchema.ResourceReference("svc://kb/{slug}"),
                    new McpSchema.CompleteRequest.CompleteArgument("slug", "pa")));
            assertThat(kb.completion().values()).containsExactly("pager-duty", "pager_rota", "patching");
            assertThat(c.completeCompletion(new McpSchema.CompleteRequest(new McpSchema.ResourceReference(
                    "svc://kb/{slug}"), new McpSchema.CompleteRequest.CompleteArgument("slug", "pager_"))).completion()
                    .values()).as("'_' is not a wildcard").containsExactly("pager_rota");
            assertThat(c.completeCompletion(new McpSchema.CompleteRequest(new McpSchema.ResourceReference(
                    "svc://memory/{scope}/{slug}"), new McpSchema.CompleteRequest.CompleteArgument("scope", "user-t")))
                    .completion().values()).containsExactly("user-tenant", "user-target");
            var slugs = c.completeCompletion(new McpSchema.CompleteRequest(new McpSchema.ResourceReference(
                    "svc://memory/{scope}/{slug}"), new McpSchema.CompleteRequest.CompleteArgument("slug", "deploy"),
                    new McpSchema.CompleteRequest.CompleteContext(Map.of("scope", "tenant"))));
            assertThat(slugs.completion().values()).containsExactly("deploy-freeze");
            assertThat(c.completeCompletion(new McpSchema.CompleteRequest(new McpSchema.ResourceReference(
                    "svc://kb/{slug}"), new McpSchema.CompleteRequest.CompleteArgument("slug", "%"))).completion()
                    .values()).as("a LIKE pattern is not a prefix").isEmpty();
            assertThatThrownBy(() -> c.completeCompletion(new McpSchema.CompleteRequest(new McpSchema.ResourceReference(
                    "svc://kb/{slug}"), new McpSchema.CompleteRequest.CompleteArgument("name", "x"))))
                    .hasMessageContaining("no argument 'name'");
        }
        try (McpSyncClient other = sdkClient(issuer.mcpToken("other", TENANT, "operator"))) {
            assertThat(other.completeCompletion(new McpSchema.CompleteRequest(new McpSchema.ResourceReference(
                    "svc://kb/{slug}"), new McpSchema.CompleteRequest.CompleteArgument("slug", "pa"))).completion()
                    .values()).as("another tenant's slugs never complete").isEmpty();
        }
    }
}
