package dev.backplane.kernel.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.KernelTest;
import dev.backplane.kernel.testing.LoopbackHttp;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Progress and log notifications on {@code /mcp}: the official MCP Java SDK client receives progress
 * while a slow loopback target has not answered (the target answers only once the client has seen the
 * ticks, so nothing races a clock) and the call's own log events at or above the level it set; raw HTTP
 * shows the plain-JSON answer when nothing is streamed or the client takes no stream, the stateless
 * revision's per-request level, the bad inputs, and that no param, result or credential reaches a
 * notification.
 */
@KernelTest
class McpNotificationsIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String PASSWORD = "notify-secret-" + UUID.randomUUID();
    private static final String PARAM_CANARY = "param-canary-" + UUID.randomUUID();
    private static final String RESULT_CANARY = "result-canary-" + UUID.randomUUID();
    private static final UUID TENANT = UUID.randomUUID();
    /** Released by the client once it has seen enough progress: until then the target does not answer. */
    private static volatile CountDownLatch release = new CountDownLatch(1);
    private static HttpServer target;
    private static TestIssuer issuer;
    private static TestKernel kernel;

    @BeforeKernel
    static void start(KernelSetup setup) {
        target = LoopbackHttp.start(x -> {
            String path = x.getRequestURI().getPath();
            if (path.equals("/items/slow")) {
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            int status = path.equals("/items/locked") ? 401 : 200;
            LoopbackHttp.answer(x, status, path.equals("/items") ? LoopbackHttp.items(x) : "body " + RESULT_CANARY);
        });
        setup.closeAfter(() -> target.stop(0));
        setup.plugin(TestPlugins.connector("notify", "1.x").product("notify").ranges("*").operations(6)
                .httpProbe(false));
    }

    @BeforeAll
    static void targetAndConnector() {
        McpFixture.target(kernel, issuer.token("admin", TENANT, "tenant_admin"), "notify",
                target.getAddress().getPort(), PASSWORD);
    }

    private static Map<String, Object> get(String name) {
        return call("notify.item1.get", Map.of("name", name, "note", PARAM_CANARY));
    }

    private static Map<String, Object> call(String op, Map<String, Object> params) {
        return Map.of("connector_id", "notify-1.x", "op_id", op, "target", "t1", "params", params);
    }

    private static McpSyncClient sdkClient(String sub, List<McpSchema.ProgressNotification> progress,
                                           List<McpSchema.LoggingMessageNotification> logs) {
        String token = issuer.mcpToken(sub, TENANT, "operator");
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(kernel.url())
                .endpoint("/mcp")
                .httpRequestCustomizer((builder, method, uri, body, context) ->
                        builder.header("Authorization", "Bearer " + token))
                .build();
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60))
                .progressConsumer(p -> {
                    progress.add(p);
                    if (progress.stream().filter(n -> n.message().contains("still running")).count() >= 2) {
                        release.countDown();
                    }
                })
                .loggingConsumer(logs::add).build();
        client.initialize();
        return client;
    }

    @Test
    @SuppressWarnings("unchecked")
    void aSlowCallReportsProgressUntilTheTargetAnswers() {
        release = new CountDownLatch(1);
        List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
        try (McpSyncClient c = sdkClient("progress-" + UUID.randomUUID(), progress, new CopyOnWriteArrayList<>())) {
            McpSchema.CallToolResult r = c.callTool(new McpSchema.CallToolRequest("call_operation", get("slow"),
                    Map.of("progressToken", "tok-1")));
            assertThat(release.getCount()).as("the target answered because the client saw two ticks, not on its "
                    + "30 s deadline").isZero();
            assertThat(r.isError()).isFalse();
            assertThat(((Map<String, Object>) r.structuredContent()).get("status")).isEqualTo("ok");
            assertThat(r.structuredContent().toString()).as("the result did carry the canary").contains(RESULT_CANARY);
        }
        await(() -> progress.size() >= 6, "the steps and two ticks");
        assertThat(progress).allSatisfy(p -> assertThat(p.progressToken()).isEqualTo("tok-1"));
        // the SDK hands notifications to the consumer on several threads, so they arrive here in any order
        List<McpSchema.ProgressNotification> sent = progress.stream()
                .sorted(java.util.Comparator.comparing(McpSchema.ProgressNotification::progress)).toList();
        assertThat(sent.stream().map(McpSchema.ProgressNotification::progress)).doesNotHaveDuplicates();
        List<String> messages = sent.stream().map(McpSchema.ProgressNotification::message).toList();
        assertThat(messages).startsWith("running call_operation", "policy gate passed", "credential resolved",
                "calling the target");
        assertThat(messages).filteredOn(m -> m.startsWith("calling the target; still running after")).hasSizeGreaterThanOrEqualTo(2);
        assertThat(String.join("\n", messages)).doesNotContain(PASSWORD, PARAM_CANARY, RESULT_CANARY);
    }

    @Test
    void theSessionsLevelDecidesWhichOfTheCallsEventsAreLogged() {
        List<McpSchema.LoggingMessageNotification> logs = new CopyOnWriteArrayList<>();
        String approval;
        try (McpSyncClient c = sdkClient("logger-" + UUID.randomUUID(), new CopyOnWriteArrayList<>(), logs)) {
            assertThat(c.getServerCapabilities().logging()).isNotNull();
            c.setLoggingLevel(McpSchema.LoggingLevel.INFO);
            McpSchema.CallToolResult denied = c.callTool(new McpSchema.CallToolRequest("call_operation",
                    call("notify.item2.delete", Map.of("name", PARAM_CANARY))));
            assertThat(denied.structuredContent().toString()).contains("denied");
            await(() -> logs.size() >= 1, "the denial's log message");
            c.callTool(new McpSchema.CallToolRequest("call_operation", get("locked")));
            await(() -> logs.size() >= 2, "the connector error's log message");
            c.callTool(new McpSchema.CallToolRequest("call_operation", call("notify.item0.list", Map.of("count", 120))));
            await(() -> logs.size() >= 3, "the reduction's log message");
            McpSchema.CallToolResult parked = c.callTool(new McpSchema.CallToolRequest("call_operation",
                    call("notify.item5.delete", Map.of("name", PARAM_CANARY))));
            approval = ((Map<?, ?>) ((Map<?, ?>) parked.structuredContent()).get("extras")).get("approval_request_id")
                    .toString();
            await(() -> logs.size() >= 4, "the parking's log message");
            Map<String, Object> nowhere = new LinkedHashMap<>(get("x"));
            nowhere.put("target", "nowhere");
            assertThat(c.callTool(new McpSchema.CallToolRequest("call_operation", nowhere)).isError()).isTrue();
            await(() -> logs.size() >= 5, "the refusal's log message");
        }
        assertThat(logs.get(0).level()).isEqualTo(McpSchema.LoggingLevel.WARNING);
        assertThat(logs.get(0).data()).contains("notify.item2.delete", "denied by policy", "operation_not_enabled");
        assertThat(logs.get(1).level()).isEqualTo(McpSchema.LoggingLevel.ERROR);
        assertThat(logs.get(1).data()).contains("notify.item1.get", "connector_auth_failed");
        assertThat(logs.get(2).level()).isEqualTo(McpSchema.LoggingLevel.INFO);
        assertThat(logs.get(2).data()).contains("result reduced to 10 of 120 rows");
        assertThat(logs.get(3).level()).isEqualTo(McpSchema.LoggingLevel.NOTICE);
        assertThat(logs.get(3).data()).contains("notify.item5.delete", "parked for approval", approval);
        assertThat(logs.get(4).level()).isEqualTo(McpSchema.LoggingLevel.ERROR);
        assertThat(logs.get(4).data()).isEqualTo("call_operation refused, target_not_found");
        assertThat(logs).as("debug steps are below the level").hasSize(5);
        assertThat(logs.stream().map(McpSchema.LoggingMessageNotification::data).toList().toString())
                .doesNotContain(PASSWORD, PARAM_CANARY, RESULT_CANARY);
    }

    @Test
    void aLevelAboveTheCallsEventsOrAnotherCallersSessionLeavesTheAnswerPlainJson() throws Exception {
        String token = issuer.mcpToken("raw-" + UUID.randomUUID(), TENANT, "operator");
        String session = initialize(token);
        JsonNode set = JSON.readTree(post(token, request("logging/setLevel", "{\"level\":\"error\"}"),
                Map.of("Mcp-Session-Id", session)).body());
        assertThat(set.path("result").isObject()).as(set.toString()).isTrue();
        String deny = request("tools/call", "{\"name\":\"call_operation\",\"arguments\":"
                + JSON.writeValueAsString(call("notify.item2.delete", Map.of())) + "}");
        HttpResponse<String> quiet = post(token, deny, Map.of("Mcp-Session-Id", session));
        assertThat(quiet.headers().firstValue("Content-Type").orElse("")).as("a warning is below error: nothing "
                + "streamed").startsWith("application/json");
        assertThat(JSON.readTree(quiet.body()).path("result").path("structuredContent").path("status").asText())
                .isEqualTo("denied");

        JsonNode lowered = JSON.readTree(post(token, request("logging/setLevel", "{\"level\":\"warning\"}"),
                Map.of("Mcp-Session-Id", session)).body());
        assertThat(lowered.has("result")).isTrue();
        List<JsonNode> events = events(post(token, deny, Map.of("Mcp-Session-Id", session)));
        assertThat(events).hasSize(2);
        assertThat(events.get(0).path("method").asText()).isEqualTo("notifications/message");
        assertThat(events.get(0).path("params").path("level").asText()).isEqualTo("warning");
        assertThat(events.get(1).path("id").asText()).as("the response is the last event").isEqualTo("r1");

        String other = issuer.mcpToken("someone-else", TENANT, "operator");
        HttpResponse<String> borrowed = post(other, deny, Map.of("Mcp-Session-Id", session));
        assertThat(borrowed.headers().firstValue("Content-Type").orElse("")).as("a session's level is its caller's")
                .startsWith("application/json");
    }

    @Test
    void theStatelessRevisionTakesTheLevelAndTheTokenPerRequestAndOnlyAStreamingClientGetsAStream() throws Exception {
        String token = issuer.mcpToken("stateless-" + UUID.randomUUID(), TENANT, "operator");
        String body = statelessCall("\"progressToken\":7,\"io.modelcontextprotocol/logLevel\":\"debug\"",
                call("notify.item0.list", Map.of("count", 100)));
        List<JsonNode> events = events(post(token, body, statelessHeaders()));
        JsonNode response = events.getLast();
        assertThat(response.path("result").path("structuredContent").path("status").asText()).isEqualTo("ok");
        assertThat(response.path("result").path("resultType").asText()).isEqualTo("complete");
        List<String> kinds = events.subList(0, events.size() - 1).stream().map(e -> e.path("method").asText()
                + " " + e.path("params").path("message").asText(e.path("params").path("data").asText())).toList();
        assertThat(kinds).contains("notifications/progress policy gate passed",
                "notifications/message policy gate passed", "notifications/progress the target answered; reducing the result");
        List<JsonNode> progress = events.stream().filter(e -> e.path("method").asText().equals("notifications/progress"))
                .toList();
        assertThat(progress).allSatisfy(e -> assertThat(e.path("params").path("progressToken").asInt()).isEqualTo(7));
        assertThat(progress.stream().map(e -> e.path("params").path("progress").asInt()).toList())
                .as("on the wire, progress increases with every notification").isSorted().doesNotHaveDuplicates();

        HttpRequest.Builder jsonOnly = HttpRequest.newBuilder(URI.create(kernel.url() + "/mcp"))
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.ofString(body));
        statelessHeaders().forEach(jsonOnly::header);
        HttpResponse<String> plain = HTTP.send(jsonOnly.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(plain.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        assertThat(JSON.readTree(plain.body()).path("result").path("structuredContent").path("status").asText())
                .isEqualTo("ok");

        String handle = response.path("result").path("structuredContent").path("extras").path("fetch_more")
                .path("drill_in").path("handle_id").asText();
        String query = "{\"jsonrpc\":\"2.0\",\"id\":\"r1\",\"method\":\"tools/call\",\"params\":{\"name\":\"result_query\","
                + "\"arguments\":{\"handle_id\":\"" + handle + "\",\"offset\":60},\"_meta\":" + statelessMeta("\"progressToken\":\"q\"") + "}}";
        Map<String, String> queryHeaders = new LinkedHashMap<>(statelessHeaders());
        queryHeaders.put("Mcp-Name", "result_query");
        List<JsonNode> queried = events(post(token, query, queryHeaders));
        assertThat(queried.getFirst().path("params").path("message").asText()).isEqualTo("running result_query");
        assertThat(queried.getLast().path("result").path("structuredContent").path("returned_rows").asInt()).isEqualTo(40);

        HttpResponse<String> noMeta = post(token, statelessCall("", call("notify.item0.list", Map.of("count", 2))),
                statelessHeaders());
        assertThat(noMeta.headers().firstValue("Content-Type").orElse("")).as("neither token nor level: plain JSON")
                .startsWith("application/json");
    }

    @Test
    void badLevelsTokensAndSessionsAreJsonRpcErrors() throws Exception {
        String token = issuer.mcpToken("bad-" + UUID.randomUUID(), TENANT, "operator");
        String session = initialize(token);
        for (String level : List.of("\"verbose\"", "\"DEBUG\"", "3", "null", "{}")) {
            JsonNode r = JSON.readTree(post(token, request("logging/setLevel", "{\"level\":" + level + "}"),
                    Map.of("Mcp-Session-Id", session)).body());
            assertThat(r.path("error").path("code").asInt()).as(level).isEqualTo(-32602);
            assertThat(r.path("error").path("data").path("reason").asText()).isEqualTo("invalid_level");
        }
        JsonNode noSession = JSON.readTree(post(token, request("logging/setLevel", "{\"level\":\"info\"}"), Map.of())
                .body());
        assertThat(noSession.path("error").path("code").asInt()).isEqualTo(-32600);
        assertThat(noSession.path("error").path("data").path("reason").asText()).isEqualTo("session_required");
        JsonNode badToken = JSON.readTree(post(token, "{\"jsonrpc\":\"2.0\",\"id\":\"r1\",\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"list_targets\",\"arguments\":{},\"_meta\":{\"progressToken\":{\"a\":1}}}}",
                Map.of()).body());
        assertThat(badToken.path("error").path("code").asInt()).isEqualTo(-32602);

        JsonNode loud = JSON.readTree(post(token, statelessCall("\"io.modelcontextprotocol/logLevel\":\"loud\"",
                call("notify.item0.list", Map.of())), statelessHeaders()).body());
        assertThat(loud.path("error").path("code").asInt()).isEqualTo(-32602);
        Map<String, String> setLevelHeaders = new LinkedHashMap<>(statelessHeaders());
        setLevelHeaders.put("Mcp-Method", "logging/setLevel");
        setLevelHeaders.remove("Mcp-Name");
        JsonNode removed = JSON.readTree(post(token, "{\"jsonrpc\":\"2.0\",\"id\":\"r1\",\"method\":\"logging/setLevel\","
                + "\"params\":{\"level\":\"info\",\"_meta\":" + statelessMeta("") + "}}", setLevelHeaders).body());
        assertThat(removed.path("error").path("code").asInt()).as("2026-07-28 has no logging/setLevel")
                .isEqualTo(-32601);
    }

    /** Polls until {@code condition} holds: the SDK hands notifications to the consumers on its own threads. */
    private static void await(BooleanSupplier condition, String what) {
        Instant deadline = Instant.now().plusSeconds(20);
        while (!condition.getAsBoolean()) {
            assertThat(Instant.now()).as("waiting for " + what).isBefore(deadline);
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static String initialize(String token) throws Exception {
        HttpResponse<String> r = post(token, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}",
                Map.of());
        assertThat(JSON.readTree(r.body()).path("result").path("capabilities").has("logging")).isTrue();
        return r.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    private static String request(String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":\"r1\",\"method\":\"" + method + "\",\"params\":" + params + "}";
    }

    private static String statelessMeta(String extra) {
        return "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\""
                + ":{}" + (extra.isEmpty() ? "" : "," + extra) + "}";
    }

    private static String statelessCall(String meta, Map<String, Object> args) throws Exception {
        return "{\"jsonrpc\":\"2.0\",\"id\":\"r1\",\"method\":\"tools/call\",\"params\":{\"name\":\"call_operation\","
                + "\"arguments\":" + JSON.writeValueAsString(args) + ",\"_meta\":" + statelessMeta(meta) + "}}";
    }

    private static Map<String, String> statelessHeaders() {
        return Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "call_operation");
    }

    private static HttpResponse<String> post(String token, String body, Map<String, String> headers) throws Exception {
        return McpFixture.post(kernel, token, body, headers);
    }

    /** The JSON-RPC messages of an SSE answer, in order. */
    private static List<JsonNode> events(HttpResponse<String> r) throws Exception {
        assertThat(r.headers().firstValue("Content-Type").orElse("")).as(r.body()).startsWith("text/event-stream");
        List<JsonNode> out = new ArrayList<>();
        for (String line : r.body().split("\n")) {
            if (line.startsWith("data: ")) {
                out.add(JSON.readTree(line.substring(6)));
            }
        }
        return out;
    }
}
