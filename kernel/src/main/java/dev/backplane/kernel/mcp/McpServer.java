package dev.backplane.kernel.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.kb.KbService;
import dev.backplane.kernel.memory.MemoryService;
import dev.backplane.kernel.runbooks.RunbookTemplates;
import dev.backplane.kernel.tools.ToolRegistry;
import dev.backplane.kernel.util.JsonMapping;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * JSON-RPC 2.0 for MCP, one message per HTTP POST. Serves the handshake revisions 2025-06-18 and
 * 2025-11-25 ({@code initialize}) and the stateless 2026-07-28 revision (no handshake;
 * {@code server/discover}; protocol version and client capabilities in every request's {@code _meta},
 * checked by {@link StatelessRequests}; {@code resultType} on results, caching hints on the cacheable ones;
 * only the methods that revision defines and this server declares), choosing per request. The only state is a handshake session's log
 * level ({@link McpNotifications}). A tool call may notify progress and log messages ahead of its
 * response ({@link McpNotifier}). Protocol errors are JSON-RPC errors; what a tool does wrong is a tool
 * result with {@code isError}, except the argument errors SPEC makes -32602. This class dispatches and adds what
 * each revision puts on every result; the answers come from {@link McpInstructions} (initialize, server/discover),
 * {@link McpResources}, {@link McpToolCalls} and {@link McpCompletions}.
 */
final class McpServer {

    static final String V2025_06_18 = "2025-06-18";
    static final String V2025_11_25 = "2025-11-25";
    static final String V2026_07_28 = "2026-07-28";
    /** Versions the handshake may settle on, newest first. */
    static final List<String> HANDSHAKE_VERSIONS = List.of(V2025_11_25, V2025_06_18);
    static final List<String> ALL_VERSIONS = List.of(V2026_07_28, V2025_11_25, V2025_06_18);
    static final String META_VERSION = "io.modelcontextprotocol/protocolVersion";

    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    /** Resource not found in the handshake revisions; 2026-07-28 answers it with -32602 instead. */
    static final int RESOURCE_NOT_FOUND = -32002;
    /** 2026-07-28 (basic/transports/streamable-http, "Server Validation"): a header disagrees with the body. */
    static final int HEADER_MISMATCH = -32020;
    /** 2026-07-28 (basic/versioning): the request's protocol version is not served; data: supported, requested. */
    static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;
    static final String META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";

    /**
     * The methods the stateless revision answers: what 2026-07-28 defines and this server implements and declares in
     * {@code server/discover} (tools, resources, completions). Its changelog removed {@code initialize},
     * {@code ping}, {@code logging/setLevel} and {@code notifications/roots/list_changed}; {@code prompts/*} are
     * answered only by servers declaring the prompts capability (server/prompts), which this one does not. Anything
     * else is -32601, which that revision's Streamable HTTP sends with HTTP 404.
     */
    static final Set<String> STATELESS_METHODS = Set.of("server/discover", "tools/list", "tools/call",
            "resources/list", "resources/templates/list", "resources/read", "completion/complete");
    /**
     * Results that carry caching hints in 2026-07-28 (server/utilities/caching: "Servers MUST include caching hints
     * on results ... returned by" these).
     */
    static final Set<String> CACHEABLE = Set.of("server/discover", "tools/list", "prompts/list", "resources/list",
            "resources/templates/list", "resources/read");
    /**
     * {@code cacheScope}: every cacheable result depends on who asks — tools by role, resources, runbooks, kb and
     * memory by tenant and user, the discover instructions by the tenant's conventions — so none may be shared
     * across authorization contexts.
     */
    static final String CACHE_SCOPE = "private";
    /**
     * {@code ttlMs}: a minute. Tool lists change only with a kernel upgrade, but runbooks are published, kb and memory
     * entries edited and conventions changed at any time; a minute bounds how stale an agent's view can get while
     * sparing it a round trip per turn. A hint, not a promise (the caching page says so).
     */
    static final long CACHE_TTL_MS = 60_000;

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private final McpInstructions instructions;
    private final McpResources resources;
    private final McpToolCalls toolCalls;
    private final McpCompletions completions;
    private final McpNotifications notifications = new McpNotifications();

    /**
     * {@code conventions}: the tenant's operational conventions, packed within their token budget (empty when
     * there are none); {@code features}: the feature-maturity index the {@code svc://features} resource serves and
     * the instructions label.
     */
    McpServer(ToolRegistry tools, String version, KbService kb, MemoryService memory,
              Function<UUID, String> conventions, RunbookTemplates runbooks, Map<String, Object> features) {
        JsonNode index = JsonMapping.mapper().valueToTree(features);
        this.resources = new McpResources(kb, memory, runbooks, index.toPrettyString());
        this.instructions = new McpInstructions(version, conventions, index);
        this.toolCalls = new McpToolCalls(tools);
        this.completions = new McpCompletions(kb, memory, runbooks);
    }

    /**
     * One request: who sent it, in which revision, the handshake session it names ({@code Mcp-Session-Id};
     * never for the stateless revision) and where notifications about it go.
     */
    record Exchange(Caller caller, JsonNode request, boolean stateless, Optional<String> sessionId, McpStream stream) {
    }

    /** A protocol-level failure with its JSON-RPC code. */
    static final class RpcError extends RuntimeException {
        final int code;
        final transient Map<String, Object> data;

        RpcError(int code, String message, Map<String, Object> data) {
            super(message);
            this.code = code;
            this.data = data;
        }
    }

    /** Answers one request ({@code id} present); throws {@link RpcError} for protocol errors. */
    JsonNode handle(Exchange x) {
        Caller caller = x.caller();
        boolean stateless = x.stateless();
        String method = x.request().path("method").asText();
        JsonNode params = x.request().path("params");
        if (stateless && !STATELESS_METHODS.contains(method)) {
            throw notServedStatelessly(method);
        }
        McpNotifier notifier = notifications.notifier(x);
        ObjectNode result = switch (method) {
            case "initialize" -> instructions.initialize(caller.tenantId(), params);
            case "server/discover" -> instructions.discover(caller.tenantId());
            case "ping" -> NODES.objectNode();
            case "tools/list" -> toolCalls.list(caller);
            case "tools/call" -> toolCalls.call(caller, params, notifier);
            case "resources/list" -> resources.list(caller);
            case "resources/templates/list" -> McpResources.templates();
            case "resources/read" -> resources.read(caller, params.path("uri").asText(), stateless);
            // handshake revisions only (the stateless one refused it above): an empty list, as before, for the
            // legacy clients that list prompts without looking at the capabilities
            case "prompts/list" -> NODES.objectNode().set("prompts", NODES.arrayNode());
            case "completion/complete" -> completions.complete(caller, params);
            case "logging/setLevel" -> notifications.setLevel(x);
            default -> throw new RpcError(METHOD_NOT_FOUND, "method not found: " + method, Map.of());
        };
        if (method.equals("tools/call")) {
            // the audit session the call was recorded in, for svc audit replay (McpSessions)
            caller.sessionId().ifPresent(id -> result.putObject("_meta").put(McpSessions.META_AUDIT_SESSION,
                    id.toString()));
        }
        if (stateless) {
            result.put("resultType", "complete");
            if (CACHEABLE.contains(method)) {
                result.put("ttlMs", CACHE_TTL_MS);
                result.put("cacheScope", CACHE_SCOPE);
            }
            // basic/index, "Per-response protocol fields": servers SHOULD identify themselves in every result
            (result.get("_meta") instanceof ObjectNode meta ? meta : result.putObject("_meta"))
                    .set(META_SERVER_INFO, instructions.serverInfo());
        }
        return result;
    }

    /** -32601 for a method the stateless revision does not answer, saying what to use instead where there is one. */
    private static RpcError notServedStatelessly(String method) {
        String instead = switch (method) {
            case "initialize" -> "; " + V2026_07_28 + " has no handshake: call "
                    + "server/discover, and put the protocol version and client capabilities in each request's _meta";
            case "ping" -> "; " + V2026_07_28 + " removed ping";
            case "logging/setLevel" -> "; " + V2026_07_28 + " removed it: put " + McpNotifications.META_LOG_LEVEL
                    + " in each request's _meta";
            case "prompts/list", "prompts/get" -> "; this server declares no prompts capability";
            default -> "";
        };
        return new RpcError(METHOD_NOT_FOUND, "Method not found: " + method + instead, Map.of());
    }

    /** A JSON-RPC error; {@code id} null is a JSON null id, a missing node leaves the id out. */
    static ObjectNode errorMessage(JsonNode id, int code, String message, Map<String, Object> data) {
        id = id == null ? NODES.nullNode() : id;
        ObjectNode out = NODES.objectNode();
        out.put("jsonrpc", "2.0");
        if (!id.isMissingNode()) {
            out.set("id", id); // absent only where the 2026-07-28 revision answers a notification
        }
        ObjectNode error = out.putObject("error");
        error.put("code", code);
        error.put("message", message);
        if (!data.isEmpty()) {
            error.set("data", JsonMapping.mapper().valueToTree(data));
        }
        return out;
    }
}
