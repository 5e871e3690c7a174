package dev.backplane.kernel.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.testing.KernelTest;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The MUSTs of the stateless 2026-07-28 revision on the real {@code /mcp} (raw HTTP: no SDK speaks it yet), one test
 * per rule: caching hints, 404/-32601 for what that revision does not answer, -32020 for headers that disagree with
 * the body (Base64 {@code Mcp-Name} decoded first), -32022 for an unsupported version, -32602/400 for a request
 * without its {@code _meta} fields, -32602 for a missing resource, no prompts without the capability — and, for the
 * handshake revisions, 400 for a version header {@code initialize} never settles on. The pages each rule comes from
 * are named in {@link StatelessRequests} and {@link McpServer}.
 */
@KernelTest
class McpRevision20260728IT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final UUID TENANT = UUID.randomUUID();
    private static final String META = "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
    private static TestIssuer issuer;
    private static TestKernel kernel;
    private static String token;

    @BeforeAll
    static void kbEntry() {
        String admin = issuer.token("admin", TENANT, "tenant_admin");
        var added = kernel.send("POST", "/api/v1/kb", admin, "{\"slug\": \"pager-rota\", \"body\": \"# Pager rota\"}",
                Map.of());
        assertThat(added.status()).as(added.body()).isIn(200, 201);
        token = issuer.mcpToken("rev-agent", TENANT, "operator");
    }

    /** A request of the revision: {@code params} (JSON members, may be empty) plus {@code _meta} ({@code null}: none). */
    private static String body(String method, String params, String meta) {
        String members = params + (meta == null ? "" : (params.isEmpty() ? "" : ",") + "\"_meta\":" + meta);
        return "{\"jsonrpc\":\"2.0\",\"id\":\"q\",\"method\":\"" + method + "\",\"params\":{" + members + "}}";
    }

    /** The headers a conforming client sends: version, method and (when not null) name. */
    private static Map<String, String> headers(String method, String name) {
        Map<String, String> h = new LinkedHashMap<>(Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", method));
        if (name != null) {
            h.put("Mcp-Name", name);
        }
        return h;
    }

    private static HttpResponse<String> post(String body, Map<String, String> headers) throws Exception {
        return McpFixture.post(kernel, token, body, headers);
    }

    private static JsonNode json(HttpResponse<String> r) throws Exception {
        return JSON.readTree(r.body());
    }

    private static void assertError(HttpResponse<String> r, int status, int code, String what) throws Exception {
        assertThat(r.statusCode()).as(what + ": " + r.body()).isEqualTo(status);
        assertThat(json(r).path("error").path("code").asInt()).as(what + ": " + r.body()).isEqualTo(code);
    }

    @Test
    void cacheableResultsCarryPrivateOneMinuteCachingHints() throws Exception {
        for (String[] call : new String[][] {{"server/discover", "", null}, {"tools/list", "", null},
                {"resources/list", "", null}, {"resources/templates/list", "", null},
                {"resources/read", "\"uri\":\"svc://kb/pager-rota\"", "svc://kb/pager-rota"}}) {
            var r = post(body(call[0], call[1], META), headers(call[0], call[2]));
            assertThat(r.statusCode()).as(call[0] + ": " + r.body()).isEqualTo(200);
            JsonNode result = json(r).path("result");
            assertThat(result.path("resultType").asText()).as(call[0]).isEqualTo("complete");
            assertThat(result.path("ttlMs").isIntegralNumber()).as(call[0] + " ttlMs: " + result).isTrue();
            assertThat(result.path("ttlMs").asLong()).as(call[0]).isEqualTo(60_000L);
            assertThat(result.path("cacheScope").asText()).as(call[0] + ": results depend on the caller")
                    .isEqualTo("private");
            assertThat(result.path("_meta").path("io.modelcontextprotocol/serverInfo").path("name").asText())
                    .isEqualTo("svc-backplane");
        }
        JsonNode called = json(post(body("tools/call", "\"name\":\"list_targets\",\"arguments\":{}", META),
                headers("tools/call", "list_targets"))).path("result");
        assertThat(called.has("ttlMs") || called.has("cacheScope")).as("a tool call is not cacheable: " + called).isFalse();
        JsonNode legacy = json(post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", Map.of())).path("result");
        assertThat(legacy.has("ttlMs") || legacy.has("resultType")).as("the handshake revisions are unchanged").isFalse();
    }

    @Test
    void unknownAndRemovedMethodsAre404WithMethodNotFound() throws Exception {
        for (String method : List.of("initialize", "ping", "logging/setLevel", "resources/subscribe", "tasks/list",
                "no/such")) {
            String params = switch (method) {
                case "initialize" -> "\"protocolVersion\":\"2026-07-28\",\"capabilities\":{},"
                        + "\"clientInfo\":{\"name\":\"x\",\"version\":\"1\"}";
                case "logging/setLevel" -> "\"level\":\"info\"";
                default -> "";
            };
            var r = post(body(method, params, META), headers(method, null));
            assertError(r, 404, -32601, method);
            assertThat(json(r).path("id").asText()).isEqualTo("q");
        }
        var notification = post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\",\"params\":{"
                + "\"_meta\":" + META + "}}", headers("notifications/roots/list_changed", null));
        assertError(notification, 404, -32601, "a notification");
        assertThat(json(notification).has("id")).as("an error about a notification has no id").isFalse();
        assertError(post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", headers(
                "notifications/initialized", null)), 404, -32601, "initialized, by the version header alone");

        var legacyPing = post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", Map.of("MCP-Protocol-Version",
                "2025-11-25"));
        assertThat(legacyPing.statusCode()).as("the handshake revisions keep ping").isEqualTo(200);
        assertThat(post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", Map.of()).statusCode())
                .as("and their notifications").isEqualTo(202);
        assertError(post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"no/such\"}", Map.of()), 200, -32601,
                "the handshake revisions' unknown method (their transport names no status)");
    }

    @Test
    void headersThatDisagreeWithTheBodyAre400HeaderMismatch() throws Exception {
        String call = body("tools/call", "\"name\":\"list_targets\",\"arguments\":{}", META);
        Map<String, Map<String, String>> cases = new LinkedHashMap<>();
        cases.put("no MCP-Protocol-Version", Map.of("Mcp-Method", "tools/call", "Mcp-Name", "list_targets"));
        cases.put("MCP-Protocol-Version of a handshake revision", Map.of("MCP-Protocol-Version", "2025-11-25",
                "Mcp-Method", "tools/call", "Mcp-Name", "list_targets"));
        cases.put("no Mcp-Method", Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Name", "list_targets"));
        cases.put("another Mcp-Method", headers("tools/list", "list_targets"));
        cases.put("Mcp-Method in another case", headers("TOOLS/CALL", "list_targets"));
        cases.put("no Mcp-Name", headers("tools/call", null));
        cases.put("another Mcp-Name", headers("tools/call", "svc_connector_list"));
        for (var c : cases.entrySet()) {
            var r = post(call, c.getValue());
            assertError(r, 400, -32020, c.getKey());
            assertThat(json(r).path("id").asText()).isEqualTo("q");
        }
        assertError(post(body("resources/read", "\"uri\":\"svc://kb/pager-rota\"", META),
                headers("resources/read", "svc://kb/other")), 400, -32020, "resources/read's Mcp-Name is the uri");
        assertError(post(body("resources/read", "\"uri\":\"svc://kb/pager-rota\"", META),
                headers("resources/read", null)), 400, -32020, "resources/read without Mcp-Name");
        assertThat(post(call, headers("tools/call", "list_targets")).statusCode()).as("the matching headers pass")
                .isEqualTo(200);
    }

    @Test
    void aBase64McpNameIsDecodedBeforeTheComparison() throws Exception {
        String call = body("tools/call", "\"name\":\"list_targets\",\"arguments\":{}", META);
        var encoded = post(call, headers("tools/call", sentinel("list_targets")));
        assertThat(encoded.statusCode()).as(encoded.body()).isEqualTo(200);
        assertThat(json(encoded).path("result").path("isError").asBoolean()).as(encoded.body()).isFalse();

        var read = post(body("resources/read", "\"uri\":\"svc://kb/pager-rota\"", META),
                headers("resources/read", sentinel("svc://kb/pager-rota")));
        assertThat(json(read).path("result").path("contents").get(0).path("text").asText()).as(read.body())
                .contains("# Pager rota");

        String unicode = "liste_cibles_é";
        var decoded = post(body("tools/call", "\"name\":\"" + unicode + "\",\"arguments\":{}", META),
                headers("tools/call", sentinel(unicode)));
        assertThat(decoded.statusCode()).as("a non-ASCII name, Base64 of UTF-8, passes the headers: " + decoded.body())
                .isEqualTo(200);
        assertThat(json(decoded).path("error").path("data").path("reason").asText()).isEqualTo("unknown_tool");

        assertError(post(call, headers("tools/call", sentinel("svc_connector_list"))), 400, -32020,
                "an encoded other name");
        assertError(post(call, headers("tools/call", "=?base64?not base64!?=")), 400, -32020, "malformed Base64");
        assertError(post(call, headers("tools/call", "=?base64?"
                + Base64.getEncoder().encodeToString(new byte[] {(byte) 0xC3, (byte) 0x28}) + "?=")), 400, -32020,
                "Base64 of bytes that are not UTF-8");
        assertError(post(call, headers("tools/call", "=?BASE64?" + Base64.getEncoder().encodeToString(
                "list_targets".getBytes(StandardCharsets.UTF_8)) + "?=")), 400, -32020,
                "the markers are case-sensitive: this is a literal value");
    }

    private static String sentinel(String value) {
        return "=?base64?" + Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)) + "?=";
    }

    @Test
    void anUnsupportedMetaVersionIs400WithSupportedAndRequested() throws Exception {
        String meta = "{\"io.modelcontextprotocol/protocolVersion\":\"2027-01-01\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
        Map<String, String> h = new LinkedHashMap<>(headers("tools/list", null));
        h.put("MCP-Protocol-Version", "2027-01-01");
        var r = post(body("tools/list", "", meta), h);
        assertError(r, 400, -32022, "a future version");
        JsonNode data = json(r).path("error").path("data");
        assertThat(data.path("requested").asText()).isEqualTo("2027-01-01");
        assertThat(JSON.convertValue(data.path("supported"), List.class))
                .containsExactly("2026-07-28", "2025-11-25", "2025-06-18");

        String legacyInMeta = meta.replace("2027-01-01", "2025-11-25");
        h.put("MCP-Protocol-Version", "2025-11-25");
        var handshakeVersion = post(body("tools/list", "", legacyInMeta), h);
        assertError(handshakeVersion, 400, -32022, "a handshake version is not spoken per request");
        assertThat(json(handshakeVersion).path("error").path("data").path("requested").asText()).isEqualTo("2025-11-25");
    }

    @Test
    void aRequestWithoutItsMetaFieldsIs400InvalidParams() throws Exception {
        Map<String, String> metas = new LinkedHashMap<>();
        metas.put("no _meta", null);
        metas.put("_meta not an object", "\"x\"");
        metas.put("no protocolVersion", "{\"io.modelcontextprotocol/clientCapabilities\":{}}");
        metas.put("protocolVersion not a string", "{\"io.modelcontextprotocol/protocolVersion\":20260728,"
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}");
        metas.put("no clientCapabilities", "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}");
        metas.put("clientCapabilities not an object", "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":true}");
        for (var m : metas.entrySet()) {
            var r = post(body("tools/list", "", m.getValue()), headers("tools/list", null));
            assertError(r, 400, -32602, m.getKey());
            assertThat(json(r).path("error").path("data").path("field").asText()).as(m.getKey()).startsWith("params._meta");
        }
        assertError(post("{\"jsonrpc\":\"2.0\",\"id\":\"q\",\"method\":\"tools/list\"}", headers("tools/list", null)),
                400, -32602, "no params at all");
    }

    @Test
    void aMissingResourceIsInvalidParamsHereAndResourceNotFoundInTheHandshakeRevisions() throws Exception {
        for (String uri : List.of("svc://kb/no-such-entry", "svc://memory/tenant/no-such-entry",
                "svc://runbook/no-such-runbook", "file:///etc/passwd")) {
            var r = post(body("resources/read", "\"uri\":\"" + uri + "\"", META), headers("resources/read", uri));
            assertError(r, 200, -32602, uri);
            assertThat(json(r).path("error").path("data").path("uri").asText()).isEqualTo(uri);
            assertThat(r.body()).as("2026-07-28 must not emit -32002").doesNotContain("-32002");

            var legacy = post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\"" + uri
                    + "\"}}", Map.of("MCP-Protocol-Version", "2025-11-25"));
            assertError(legacy, 200, -32002, "handshake revision, " + uri);
        }
    }

    @Test
    void promptsAreNeitherDeclaredNorAnswered() throws Exception {
        JsonNode caps = json(post(body("server/discover", "", META), headers("server/discover", null)))
                .path("result").path("capabilities");
        assertThat(caps.has("prompts")).as(caps.toString()).isFalse();
        assertThat(caps.has("tools") && caps.has("resources")).isTrue();
        assertError(post(body("prompts/list", "", META), headers("prompts/list", null)), 404, -32601, "prompts/list");
        assertError(post(body("prompts/get", "\"name\":\"x\"", META), headers("prompts/get", "x")), 404, -32601,
                "prompts/get");
        JsonNode legacy = json(post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/list\"}", Map.of()));
        assertThat(legacy.path("result").path("prompts").isArray()).as("the handshake revisions keep their empty list")
                .isTrue();
    }

    @Test
    void handshakeRevisionsRefuseAVersionHeaderInitializeNeverSettlesOn() throws Exception {
        String list = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}";
        for (String version : List.of("2025-03-26", "2024-11-05", "1999-01-01", "latest")) {
            var r = post(list, Map.of("MCP-Protocol-Version", version));
            assertThat(r.statusCode()).as(version + ": " + r.body()).isEqualTo(400);
            assertThat(json(r).path("error").path("data").path("supported").toString()).contains("2025-11-25");
        }
        var asked = json(post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-03-26\",\"capabilities\":{},\"clientInfo\":{\"name\":\"x\",\"version\":\"1\"}}}", Map.of()));
        assertThat(asked.path("result").path("protocolVersion").asText()).as("why 2025-03-26 is never negotiated")
                .isEqualTo("2025-11-25");
        for (String version : List.of("2025-06-18", "2025-11-25")) {
            assertThat(post(list, Map.of("MCP-Protocol-Version", version)).statusCode()).as(version).isEqualTo(200);
        }
        assertThat(post(list, Map.of()).statusCode()).as("no header: taken as 2025-03-26, as that revision allows")
                .isEqualTo(200);
    }
}
