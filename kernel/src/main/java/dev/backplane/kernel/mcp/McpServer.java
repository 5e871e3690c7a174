package dev.backplane.kernel.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.catalog.CatalogErrors;
import dev.backplane.kernel.dispatch.ResultEnvelope;
import dev.backplane.kernel.docs.DocsErrors;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.memory.MemoryErrors;
import dev.backplane.kernel.tools.Tool;
import dev.backplane.kernel.tools.ToolRegistry;
import dev.backplane.kernel.util.JsonMapping;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * JSON-RPC 2.0 for MCP, one message per HTTP POST. Serves the handshake revisions 2025-06-18 and
 * 2025-11-25 ({@code initialize}) and the stateless 2026-07-28 revision (no handshake;
 * {@code server/discover}; protocol version and client capabilities in every request's {@code _meta},
 * checked by {@link StatelessRequests}; {@code resultType} on results, caching hints on the cacheable ones;
 * only the methods that revision defines and this server declares), choosing per request. The only state is a handshake session's log
 * level ({@link McpNotifications}). A tool call may notify progress and log messages ahead of its
 * response ({@link McpNotifier}). Protocol errors are JSON-RPC errors; what a tool does wrong is a tool
 * result with {@code isError}, except the argument errors SPEC makes -32602.
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
    private final ToolRegistry tools;
    private final String version;

    private final dev.backplane.kernel.kb.KbService kb;

    private final dev.backplane.kernel.memory.MemoryService memory;

    /** The tenant's operational conventions, packed within their token budget (empty when there are none). */
    private final java.util.function.Function<java.util.UUID, String> conventions;
    private final dev.backplane.kernel.runbooks.RunbookTemplates runbooks;
    /** The feature-maturity index as JSON text: the {@code svc://features} resource. */
    private final String features;
    /** What the instructions say after {@link #INSTRUCTIONS}: the search-before-write rule and the maturity labels. */
    private final String rules;

    McpServer(ToolRegistry tools, String version, dev.backplane.kernel.kb.KbService kb,
              dev.backplane.kernel.memory.MemoryService memory,
              java.util.function.Function<java.util.UUID, String> conventions,
              dev.backplane.kernel.runbooks.RunbookTemplates runbooks, Map<String, Object> features) {
        this.runbooks = runbooks;
        JsonNode index = JsonMapping.mapper().valueToTree(features);
        this.features = index.toPrettyString();
        this.rules = SEARCH_BEFORE_WRITE + "\n\n" + maturity(index);
        this.tools = tools;
        this.version = version;
        this.kb = kb;
        this.memory = memory;
        this.conventions = conventions;
        this.completions = new McpCompletions(kb, memory, runbooks);
    }

    private final McpCompletions completions;
    private final McpNotifications notifications = new McpNotifications();

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
            case "initialize" -> initialize(caller, params);
            case "server/discover" -> discover(caller);
            case "ping" -> NODES.objectNode();
            case "tools/list" -> toolsList(caller);
            case "tools/call" -> toolsCall(caller, params, notifier);
            case "resources/list" -> resourcesList(caller);
            case "resources/templates/list" -> resourceTemplates();
            case "resources/read" -> readResource(caller, params.path("uri").asText(), stateless);
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
                    .set(META_SERVER_INFO, serverInfo());
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

    private ObjectNode initialize(Caller caller, JsonNode params) {
        String asked = params.path("protocolVersion").asText("");
        String chosen = HANDSHAKE_VERSIONS.contains(asked) ? asked : HANDSHAKE_VERSIONS.getFirst();
        ObjectNode r = NODES.objectNode();
        r.put("protocolVersion", chosen);
        r.set("capabilities", capabilities());
        r.set("serverInfo", serverInfo());
        r.put("instructions", instructions(caller));
        return r;
    }

    /**
     * The instructions of the handshake ({@code initialize}) and of the stateless revision's
     * {@code server/discover}: how to use the backplane, then the tenant's operational conventions.
     */
    private String instructions(Caller caller) {
        String packed = conventions.apply(caller.tenantId());
        String told = INSTRUCTIONS + "\n\n" + rules;
        return packed.isEmpty() ? told : told + "\n\n" + packed;
    }

    /** SPEC's rule for the two stores, as the instructions tell it (the write tools' descriptions repeat it). */
    static final String SEARCH_BEFORE_WRITE = "Memory (scoped, shorter-lived: preferences, conventions, gotchas) and "
            + "the knowledge base (durable team knowledge). " + ToolRegistry.SEARCH_BEFORE_WRITE_RULE + " Search with "
            + "search_memory or search_knowledge, read a hit in full (svc://memory/{scope}/{slug}, svc://kb/{slug}), "
            + "then write with add_to_memory or add_to_knowledge.";

    /**
     * One line of the labels SPEC gives (GA: memory, kb; experimental: docs; Beta: scheduler), in the index's order,
     * and where the whole index is.
     */
    static String maturity(JsonNode index) {
        Map<String, List<String>> byLabel = new java.util.LinkedHashMap<>();
        for (JsonNode f : index.path("features")) {
            if (f.path("spec_labelled").asBoolean()) {
                byLabel.computeIfAbsent(f.path("maturity").asText(), k -> new java.util.ArrayList<>())
                        .add(f.path("key").asText());
            }
        }
        List<String> parts = byLabel.entrySet().stream().map(e -> String.join(", ", e.getValue()) + " "
                + (e.getValue().size() == 1 ? "is " : "are ") + e.getKey()).toList();
        return "Feature maturity: " + String.join("; ", parts) + ". The whole index (every capability, and the "
                + "boundaries that may move) is the resource " + FEATURES_URI + ".";
    }

    private ObjectNode discover(Caller caller) {
        ObjectNode r = NODES.objectNode();
        ArrayNode versions = r.putArray("supportedVersions");
        ALL_VERSIONS.forEach(versions::add);
        r.set("capabilities", capabilities());
        // the server's identity travels in the result's _meta (server/discover, "DiscoverResult"), set by handle()
        r.put("instructions", instructions(caller));
        return r;
    }

    /** The same in every revision; no {@code prompts}, so the stateless revision answers no {@code prompts/*}. */
    private static ObjectNode capabilities() {
        ObjectNode caps = NODES.objectNode();
        caps.putObject("tools").put("listChanged", false);
        caps.putObject("resources");
        caps.putObject("completions");
        caps.putObject("logging");
        return caps;
    }

    private ObjectNode serverInfo() {
        ObjectNode info = NODES.objectNode();
        info.put("name", "svc-backplane");
        info.put("title", "svc governance backplane");
        info.put("version", version);
        return info;
    }

    static final String INSTRUCTIONS = "Every operation goes through the backplane's policy gate and is audited. "
            + "Find a connector (svc_connector_list), its groups and operations (list_operation_groups, "
            + "search_operations), a target (list_targets), then preview_operation and call_operation. "
            + "awaiting_approval means a human must approve: do not retry. Large results come back with a handle "
            + "for result_query.";

    private static ObjectNode resourceTemplates() {
        ObjectNode r = NODES.objectNode();
        ObjectNode kbTemplate = r.putArray("resourceTemplates").addObject();
        kbTemplate.put("uriTemplate", "svc://kb/{slug}");
        kbTemplate.put("name", "kb entry");
        kbTemplate.put("description", "A knowledge-base entry's full Markdown body (search_knowledge finds slugs)");
        kbTemplate.put("mimeType", "text/markdown");
        ObjectNode memoryTemplate = ((ArrayNode) r.get("resourceTemplates")).addObject();
        memoryTemplate.put("uriTemplate", "svc://memory/{scope}/{slug}");
        memoryTemplate.put("name", "memory entry");
        memoryTemplate.put("description", "A memory entry's full body (search_memory finds scope and slug)");
        memoryTemplate.put("mimeType", "text/plain");
        ObjectNode runbookTemplate = ((ArrayNode) r.get("resourceTemplates")).addObject();
        runbookTemplate.put("uriTemplate", "svc://runbook/{slug}");
        runbookTemplate.put("name", "runbook");
        runbookTemplate.put("description", "A published runbook template's YAML (its newest published version): steps, "
                + "their operations and verification questions; resources/list names them");
        runbookTemplate.put("mimeType", "application/yaml");
        return r;
    }

    static final String FEATURES_URI = "svc://features";

    /**
     * The feature-maturity index and the tenant's published runbooks: the resources an agent may list (kb and
     * memory are found by search).
     */
    private ObjectNode resourcesList(Caller caller) {
        ObjectNode r = NODES.objectNode();
        ArrayNode list = r.putArray("resources");
        ObjectNode index = list.addObject();
        index.put("uri", FEATURES_URI);
        index.put("name", "features");
        index.put("title", "Feature maturity");
        index.put("description", "The feature-maturity index: each capability's maturity (GA, Beta, experimental) "
                + "and the boundaries between surfaces that may move");
        index.put("mimeType", "application/json");
        for (var t : runbooks.published(caller.tenantId())) {
            ObjectNode item = list.addObject();
            item.put("uri", "svc://runbook/" + t.slug());
            item.put("name", t.slug());
            item.put("title", t.title());
            item.put("description", "runbook v" + t.version() + t.targetKind().map(k -> " for " + k + " targets").orElse("")
                    + ", " + t.steps() + " steps");
            item.put("mimeType", "application/yaml");
        }
        return r;
    }

    /**
     * Resource not found: -32002 in the handshake revisions (2025-11-25 server/resources, "Error Handling"), -32602
     * in 2026-07-28 (its server/resources "Error Handling"; basic/index forbids -32002 there).
     */
    private static RpcError notFound(String uri, boolean stateless, Map<String, Object> extra) {
        Map<String, Object> data = new java.util.LinkedHashMap<>();
        data.put("uri", uri);
        data.putAll(extra);
        return new RpcError(stateless ? INVALID_PARAMS : RESOURCE_NOT_FOUND, "resource not found: " + uri, data);
    }

    /** {@code svc://kb/{slug}}: the full body. Anything else is resource-not-found. */
    private ObjectNode readResource(Caller caller, String uri, boolean stateless) {
        if (uri.equals(FEATURES_URI)) {
            return contents(uri, "application/json", features);
        }
        java.util.regex.Matcher mem = java.util.regex.Pattern.compile(
                "svc://memory/(user|user-tenant|user-target|tenant|target)/([a-z0-9][a-z0-9._-]{0,127})").matcher(uri);
        if (mem.matches()) {
            try {
                return contents(uri, "text/plain", memory.show(caller, mem.group(1), mem.group(2), Optional.empty()).body());
            } catch (DomainException notFound) {
                throw notFound(uri, stateless, Map.of("reason", notFound.code()));
            }
        }
        java.util.regex.Matcher book = java.util.regex.Pattern.compile("svc://runbook/([a-z0-9][a-z0-9-]{0,127})")
                .matcher(uri);
        if (book.matches()) {
            return runbooks.published(caller.tenantId()).stream().filter(t -> t.slug().equals(book.group(1))).findFirst()
                    .map(t -> contents(uri, "application/yaml", t.source()))
                    .orElseThrow(() -> notFound(uri, stateless, Map.of()));
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("svc://kb/([a-z0-9][a-z0-9._-]{0,127})").matcher(uri);
        if (!m.matches()) {
            throw notFound(uri, stateless, Map.of());
        }
        dev.backplane.kernel.kb.KbService.Entry e;
        try {
            e = kb.show(caller.tenantId(), m.group(1));
        } catch (DomainException notFound) {
            throw notFound(uri, stateless, Map.of());
        }
        return contents(uri, "text/markdown", e.body());
    }

    private static ObjectNode contents(String uri, String mimeType, String text) {
        ObjectNode r = NODES.objectNode();
        ObjectNode content = r.putArray("contents").addObject();
        content.put("uri", uri);
        content.put("mimeType", mimeType);
        content.put("text", text);
        return r;
    }

    private ObjectNode toolsList(Caller caller) {
        ObjectNode r = NODES.objectNode();
        ArrayNode list = r.putArray("tools");
        for (Tool t : tools.visibleTo(caller)) {
            ObjectNode tool = list.addObject();
            tool.put("name", t.name());
            tool.put("description", t.description());
            tool.set("inputSchema", JsonMapping.tree(t.inputSchema(), "tool schema"));
        }
        return r;
    }

    private ObjectNode toolsCall(Caller caller, JsonNode params, McpNotifier notifier) {
        if (!params.path("name").isTextual()) {
            throw new RpcError(INVALID_PARAMS, "tools/call needs params.name", Map.of("reason", "missing_name"));
        }
        String name = params.path("name").asText();
        JsonNode args = params.path("arguments");
        if (!args.isMissingNode() && !args.isNull() && !args.isObject()) {
            throw new RpcError(INVALID_PARAMS, "arguments must be an object", Map.of("reason", "invalid_arguments"));
        }
        Tool tool = tools.find(name).filter(t -> caller.effectiveRole().includes(t.role()))
                .orElseThrow(() -> new RpcError(INVALID_PARAMS, "unknown tool: " + name, Map.of("reason",
                        "unknown_tool", "tools", tools.visibleTo(caller).stream().map(Tool::name).toList())));
        Object out;
        notifier.start("running " + name);
        try {
            out = tools.run(tool, caller, args.isObject() ? args : NODES.objectNode(), notifier);
            if (out instanceof ResultEnvelope env) {
                notifier.outcome(env);
            }
        } catch (DomainException e) {
            if (isArgumentError(e)) {
                Map<String, Object> data = new java.util.LinkedHashMap<>(e.extras());
                data.put("reason", e.code());
                throw new RpcError(INVALID_PARAMS, e.getMessage(), data);
            }
            notifier.log(McpLogLevel.ERROR, "svc.mcp", name + " refused, " + e.code());
            return toolError(e);
        } finally {
            notifier.close();
        }
        JsonNode structured = JsonMapping.mapper().valueToTree(out);
        if (!structured.isObject()) {
            structured = NODES.objectNode().set("items", structured);
        }
        ObjectNode r = NODES.objectNode();
        r.putArray("content").addObject().put("type", "text").put("text", structured.toString());
        r.set("structuredContent", structured);
        r.put("isError", out instanceof ResultEnvelope env && env.status().equals(ResultEnvelope.ERROR));
        return r;
    }

    /** The codes SPEC answers as JSON-RPC -32602 besides every {@code invalid_*} code. */
    private static final Set<ErrorCode> ARGUMENT_ERRORS = Set.of(CatalogErrors.UNKNOWN_CONNECTOR,
            CatalogErrors.CONNECTOR_NOT_INGESTED, CatalogErrors.UNKNOWN_OPERATION, CommonErrors.INSUFFICIENT_ROLE,
            MemoryErrors.TARGET_NAME_REQUIRED, DocsErrors.COLLECTION_REQUIRED, DocsErrors.COLLECTION_NOT_FOUND);

    /** Whether a domain error is an error in the tool's arguments (-32602) rather than a tool result with isError. */
    static boolean isArgumentError(DomainException e) {
        return e.code().startsWith("invalid")
                || ARGUMENT_ERRORS.stream().anyMatch(c -> c.code().equals(e.code()) && c.kind() == e.kind());
    }

    /** A refusal the agent should read (not found, forbidden, ...): a tool result flagged as an error. */
    private static ObjectNode toolError(DomainException e) {
        ObjectNode body = NODES.objectNode();
        body.put("error", e.code());
        body.put("message", e.getMessage());
        body.set("extras", JsonMapping.mapper().valueToTree(e.extras()));
        ObjectNode r = NODES.objectNode();
        r.putArray("content").addObject().put("type", "text").put("text", body.toString());
        r.set("structuredContent", body);
        r.put("isError", true);
        return r;
    }
}
