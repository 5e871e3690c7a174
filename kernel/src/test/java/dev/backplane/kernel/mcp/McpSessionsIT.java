package dev.backplane.kernel.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * MCP client calls carry an audit session ({@link McpSessions}): a client's tool calls — dispatches audited by the
 * pipeline and the other tools' {@code mcp.<tool>} rows — share one {@code session_id}, which
 * {@code GET /api/v1/audit/sessions/{session_id}} and {@code svc audit replay} show; the id is derived from the
 * handshake's {@code Mcp-Session-Id}, the {@code dev.backplane/session} {@code _meta} key (any revision, the way the
 * stateless 2026-07-28 one names a conversation) or the token's {@code sid}, always with the caller, so the same
 * value sent by another principal is another session.
 */
@KernelTest
class McpSessionsIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PASSWORD = "sess-target-" + UUID.randomUUID();
    private static final UUID TENANT = UUID.randomUUID();
    private static final String STATELESS_META = "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}";
    private static LoopbackTarget target;
    private static TestIssuer issuer;
    private static TestKernel kernel;
    private static String admin;

    @BeforeKernel
    static void start(KernelSetup setup) {
        target = LoopbackTarget.basicAuthItems(setup, "svc", PASSWORD, x -> { });
        setup.plugin(TestPlugins.connector("sessx", "1.x").product("sessx").ranges("*").operations(6).httpProbe(false));
    }

    @BeforeAll
    static void targetAndConnector() {
        admin = issuer.token("admin", TENANT, "tenant_admin");
        McpFixture.target(kernel, admin, "sessx", target.port(), PASSWORD);
    }

    private static McpSyncClient sdkClient(String token) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(kernel.url())
                .endpoint("/mcp")
                .httpRequestCustomizer((builder, method, uri, body, context) ->
                        builder.header("Authorization", "Bearer " + token))
                .build();
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build();
        client.initialize();
        return client;
    }

    /** The audit session a tool result names in {@code _meta}, or null. */
    private static String told(McpSchema.CallToolResult r) {
        return r.meta() == null ? null : (String) r.meta().get("dev.backplane/auditSession");
    }

    /** The caller's audit rows, oldest first: op_id and session_id (null when none). */
    private static List<String[]> rows(String sub) {
        var r = kernel.get("/api/v1/audit?limit=1000&principal=" + URLEncoder.encode(sub, StandardCharsets.UTF_8), admin);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        List<String[]> rows = new ArrayList<>();
        r.json().path("rows").forEach(row -> rows.add(0, new String[] {row.path("op_id").asText(),
                row.path("session_id").isNull() ? null : row.path("session_id").asText()}));
        return rows;
    }

    private static List<String> sessions(String sub) {
        return rows(sub).stream().map(r -> r[1]).toList();
    }

    /** A raw handshake-revision {@code list_targets} call, with the {@code Mcp-Session-Id} header when not null. */
    private static JsonNode handshakeCall(String token, String sessionHeader) throws Exception {
        Map<String, String> headers = sessionHeader == null ? Map.of() : Map.of("Mcp-Session-Id", sessionHeader);
        var r = McpFixture.post(kernel, token, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"list_targets\",\"arguments\":{}}}", headers);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    /** A stateless 2026-07-28 {@code list_targets} call; {@code extraMeta} are more {@code _meta} members, or "". */
    private static JsonNode statelessCall(String token, String extraMeta) throws Exception {
        var r = McpFixture.post(kernel, token, "{\"jsonrpc\":\"2.0\",\"id\":\"c\",\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"list_targets\",\"arguments\":{},\"_meta\":{" + STATELESS_META
                + (extraMeta.isEmpty() ? "" : "," + extraMeta) + "}}}", Map.of("MCP-Protocol-Version", "2026-07-28",
                "Mcp-Method", "tools/call", "Mcp-Name", "list_targets"));
        return JSON.readTree(r.body());
    }

    private static String told(JsonNode answer) {
        JsonNode id = answer.path("result").path("_meta").path("dev.backplane/auditSession");
        assertThat(answer.path("result").path("isError").asBoolean()).as(answer.toString()).isFalse();
        return id.isMissingNode() ? null : id.asText();
    }

    private static String mcpToken(String sub, Optional<String> sid) {
        return issuer.token(c -> {
            c.subject(sub).audience(TestIssuer.MCP_AUDIENCE).claim("azp", "svc-mcp").claim("scope", "openid svc:mcp")
                    .claim("tenant_id", TENANT.toString()).claim("tenant_role", "operator");
            sid.ifPresent(s -> c.claim("sid", s));
        });
    }

    @Test
    void aHandshakeClientsCallsShareOneSessionThatReplayShows() {
        String sub = "sess-sdk-" + UUID.randomUUID();
        String session;
        try (McpSyncClient c = sdkClient(issuer.mcpToken(sub, TENANT, "operator"))) {
            McpSchema.CallToolResult listed = c.callTool(new McpSchema.CallToolRequest("list_targets", Map.of()));
            McpSchema.CallToolResult called = c.callTool(new McpSchema.CallToolRequest("call_operation", Map.of(
                    "connector_id", "sessx-1.x", "op_id", "sessx.item0.list", "target", "t1", "params",
                    Map.of("count", 3))));
            assertThat(called.isError()).as(called.toString()).isFalse();
            session = told(listed);
            assertThat(session).as("the result names the audit session: " + listed).isNotNull();
            assertThat(told(called)).isEqualTo(session);
        }
        List<String[]> rows = rows(sub);
        assertThat(rows.stream().map(r -> r[0]).toList()).containsSubsequence("mcp.list_targets", "sessx.item0.list");
        assertThat(sessions(sub)).as("every row of the client's calls is in its session").containsOnly(session);

        var replay = kernel.get("/api/v1/audit/sessions/" + session, admin);
        assertThat(replay.status()).as(replay.body()).isEqualTo(200);
        List<String> replayed = new ArrayList<>();
        replay.json().forEach(row -> {
            replayed.add(row.path("op_id").asText());
            assertThat(row.path("principal").asText()).isEqualTo(sub);
        });
        assertThat(replayed).containsSubsequence("mcp.list_targets", "sessx.item0.list");
        var cli = kernel.cli(admin).run("audit", "replay", session);
        assertThat(cli.exitCode()).as(cli.toString()).isZero();
        assertThat(cli.out()).contains("mcp.list_targets").contains("sessx.item0.list");

        try (McpSyncClient again = sdkClient(issuer.mcpToken(sub, TENANT, "operator"))) {
            String next = told(again.callTool(new McpSchema.CallToolRequest("list_targets", Map.of())));
            assertThat(next).as("a new handshake is a new conversation").isNotNull().isNotEqualTo(session);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aParkedCallReleasedByAnApproverIsAuditedInTheClientsSession() {
        String sub = "sess-parked-" + UUID.randomUUID();
        String session;
        String approval;
        try (McpSyncClient c = sdkClient(issuer.mcpToken(sub, TENANT, "operator"))) {
            McpSchema.CallToolResult parked = c.callTool(new McpSchema.CallToolRequest("call_operation", Map.of(
                    "connector_id", "sessx-1.x", "op_id", "sessx.item5.delete", "target", "t1", "params",
                    Map.of("name", "x"))));
            Map<String, Object> env = (Map<String, Object>) parked.structuredContent();
            assertThat(env.get("status")).as(env.toString()).isEqualTo("awaiting_approval");
            approval = ((Map<String, Object>) env.get("extras")).get("approval_request_id").toString();
            session = told(parked);
            assertThat(session).as("the parked call's session: " + parked).isNotNull();
        }
        var approved = kernel.post("/api/v1/approvals/" + approval + "/approve", admin, Map.of());
        assertThat(approved.status()).as(approved.body()).isEqualTo(200);
        List<String[]> rows = rows(sub);
        assertThat(rows).as("the parked call and its release").hasSizeGreaterThanOrEqualTo(2)
                .allSatisfy(r -> assertThat(r[1]).as(r[0]).isEqualTo(session));
    }

    @Test
    void theSameClientValueFromAnotherPrincipalIsAnotherSession() throws Exception {
        String alice = "sess-alice-" + UUID.randomUUID();
        String bob = "sess-bob-" + UUID.randomUUID();
        String aliceToken = issuer.mcpToken(alice, TENANT, "operator");
        String bobToken = issuer.mcpToken(bob, TENANT, "operator");
        String header = UUID.randomUUID().toString();

        String aliceHandshake = told(handshakeCall(aliceToken, header));
        assertThat(told(handshakeCall(aliceToken, header))).isEqualTo(aliceHandshake).isNotNull();
        String bobHandshake = told(handshakeCall(bobToken, header));
        assertThat(bobHandshake).as("bob presenting alice's Mcp-Session-Id").isNotNull().isNotEqualTo(aliceHandshake);

        String key = "\"dev.backplane/session\":\"conversation-42\"";
        String aliceStateless = told(statelessCall(aliceToken, key));
        assertThat(told(statelessCall(aliceToken, key))).isEqualTo(aliceStateless).isNotNull();
        String bobStateless = told(statelessCall(bobToken, key));
        assertThat(bobStateless).as("bob naming alice's conversation").isNotNull().isNotEqualTo(aliceStateless);
        assertThat(told(statelessCall(aliceToken, "\"dev.backplane/session\":\"conversation-43\"")))
                .as("another conversation of alice").isNotEqualTo(aliceStateless);

        assertThat(sessions(alice)).containsOnly(aliceHandshake, aliceStateless, told(statelessCall(aliceToken,
                "\"dev.backplane/session\":\"conversation-43\"")));
        assertThat(sessions(bob)).containsOnly(bobHandshake, bobStateless);
        for (String session : List.of(aliceHandshake, aliceStateless)) {
            var replay = kernel.get("/api/v1/audit/sessions/" + session, admin).json();
            assertThat(replay).as("alice's session holds her two calls and nothing of bob's").hasSize(2);
            replay.forEach(row -> assertThat(row.path("principal").asText()).isEqualTo(alice));
        }
    }

    @Test
    void aDocsQueryIsAuditedInTheSessionToo() throws Exception {
        String sub = "sess-docs-" + UUID.randomUUID();
        String token = issuer.mcpToken(sub, TENANT, "operator");
        String key = "\"dev.backplane/session\":\"docs-conversation\"";
        String session = told(statelessCall(token, key));
        assertThat(session).isNotNull();
        var r = McpFixture.post(kernel, token, "{\"jsonrpc\":\"2.0\",\"id\":\"d\",\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"search_docs\",\"arguments\":{\"query\":\"failover\",\"collection\":\"no-such\"},"
                + "\"_meta\":{" + STATELESS_META + "," + key + "}}}", Map.of("MCP-Protocol-Version", "2026-07-28",
                "Mcp-Method", "tools/call", "Mcp-Name", "search_docs"));
        assertThat(JSON.readTree(r.body()).path("error").path("code").asInt()).as(r.body()).isEqualTo(-32602);
        List<String[]> rows = rows(sub);
        assertThat(rows.stream().map(row -> row[0]).toList()).containsExactly("mcp.list_targets", "svc.docs.search");
        assertThat(rows).allSatisfy(row -> assertThat(row[1]).as(row[0]).isEqualTo(session));
    }

    @Test
    void aStatelessClientWithoutAKeyIsGroupedByItsLoginSession() throws Exception {
        String sub = "sess-sid-" + UUID.randomUUID();
        String login = "kc-session-" + UUID.randomUUID();
        String first = told(statelessCall(mcpToken(sub, Optional.of(login)), ""));
        assertThat(first).as("grouped by the token's sid").isNotNull();
        assertThat(told(statelessCall(mcpToken(sub, Optional.of(login)), "")))
                .as("a refreshed token of the same login").isEqualTo(first);
        assertThat(told(statelessCall(mcpToken(sub, Optional.of("kc-session-" + UUID.randomUUID())), "")))
                .as("another login").isNotNull().isNotEqualTo(first);
        assertThat(told(statelessCall(mcpToken("sess-other-" + UUID.randomUUID(), Optional.of(login)), "")))
                .as("another principal with the same sid").isNotEqualTo(first);

        String bare = "sess-bare-" + UUID.randomUUID();
        assertThat(told(statelessCall(mcpToken(bare, Optional.empty()), ""))).as("nothing to group by").isNull();
        assertThat(rows(bare)).hasSize(1).allSatisfy(r -> assertThat(r[1]).isNull());
    }

    @Test
    void aMalformedSessionKeyIsInvalidParamsAndAuditsNothing() throws Exception {
        String sub = "sess-bad-" + UUID.randomUUID();
        String token = issuer.mcpToken(sub, TENANT, "operator");
        Map<String, String> bad = new LinkedHashMap<>();
        bad.put("a number", "42");
        bad.put("empty", "\"\"");
        bad.put("a space", "\"two words\"");
        bad.put("too long", "\"" + "x".repeat(129) + "\"");
        for (var e : bad.entrySet()) {
            JsonNode answer = statelessCall(token, "\"dev.backplane/session\":" + e.getValue());
            assertThat(answer.path("error").path("code").asInt()).as(e.getKey() + ": " + answer).isEqualTo(-32602);
            assertThat(answer.path("error").path("data").path("reason").asText()).isEqualTo("invalid_session");
        }
        assertThat(rows(sub)).as("a refused request ran no tool").isEmpty();
    }
}
