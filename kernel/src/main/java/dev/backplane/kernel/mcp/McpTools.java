package dev.backplane.kernel.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.dispatch.CallRequest;
import dev.backplane.kernel.dispatch.DispatchProgress;
import dev.backplane.kernel.dispatch.Dispatcher;
import dev.backplane.kernel.docs.DocsService;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.kb.KbService;
import dev.backplane.kernel.memory.MemoryService;
import dev.backplane.kernel.results.ResultQuery;
import dev.backplane.kernel.results.ResultQueryService;
import dev.backplane.kernel.retrieval.SearchLog;
import dev.backplane.kernel.targets.TargetService;
import dev.backplane.kernel.util.JsonMapping;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The agent tools of SPEC's table, each calling the same service method as its REST route. A tool the
 * caller's role may not use is neither listed nor callable. No tool registers targets, stages
 * secrets or deletes kb entries (SPEC boundary rules). One registry serves the MCP endpoint and the
 * model loop of agent runs; {@code transport} names which in audit rows ({@code <transport>.<tool>})
 * and the search log.
 */
public final class McpTools {

    /** One tool: its wire definition, the role it needs, and what it does. */
    public record Tool(String name, String description, String inputSchema, Role role, Run run) {

        /** A tool that has no steps worth reporting while it runs. */
        Tool(String name, String description, String inputSchema, Role role, BiFunction<Caller, JsonNode, Object> run) {
            this(name, description, inputSchema, role, (c, a, progress) -> run.apply(c, a));
        }
    }

    /** What a tool does; a dispatching tool tells {@code progress} the pipeline steps it reaches. */
    @FunctionalInterface
    public interface Run {
        Object apply(Caller caller, JsonNode args, DispatchProgress progress);
    }

    /**
     * SPEC's search-before-write rule ("Which store"), in its words. Told where an agent writes: the descriptions of
     * add_to_memory and add_to_knowledge, and the server's instructions ({@code initialize}, {@code server/discover}).
     */
    static final String SEARCH_BEFORE_WRITE = "before adding, search first; if a matching entry exists, read it, "
            + "merge and re-add under the same slug rather than creating a near-duplicate slug";
    static final String SEARCH_BEFORE_WRITE_RULE = "Search-before-write rule: " + SEARCH_BEFORE_WRITE + ".";

    private final Map<String, Tool> tools = new LinkedHashMap<>();
    private final AuditLog audit;
    private final SearchLog.Transport transport;

    public McpTools(TargetService targets, CatalogService catalog, Dispatcher dispatcher, ResultQueryService results,
                    AuditLog audit, KbService kb, MemoryService memory, DocsService docs, SearchLog.Transport transport) {
        this.audit = audit;
        this.transport = transport;
        add(new Tool("add_to_memory", "Remember something scoped and possibly short-lived: a preference, a convention, "
                + "a gotcha about a target. Scopes: user (you, every tenant), user-tenant (you, this tenant), user-target "
                + "(you, one target), tenant (everyone here; tenant_admin only), target (everyone touching a target). User "
                + "scopes expire after 7 days unless ttl is given; ttl null keeps it forever. " + SEARCH_BEFORE_WRITE_RULE
                + " Here: search_memory, read a hit in full as svc://memory/{scope}/{slug}, and re-add it with its scope "
                + "and slug.", """
                {"type": "object", "additionalProperties": false, "required": ["body", "scope"], "properties": {
                  "body": {"type": "string", "minLength": 1},
                  "scope": {"type": "string", "enum": ["user", "user-tenant", "user-target", "tenant", "target"]},
                  "target_name": {"type": "string", "description": "required for target and user-target"},
                  "tags": {"type": "array", "items": {"type": "string"}},
                  "ttl": {"type": ["string", "null"], "description": "ISO 8601 duration such as P7D or PT12H; null keeps forever"},
                  "slug": {"type": "string", "pattern": "^[a-z0-9][a-z0-9._-]{0,127}$"}}}""",
                Role.OPERATOR, (c, a) -> memory.add(c, memoryWrite(a))));
        add(new Tool("search_memory", "Search the memory you can see (your own, this tenant's, targets'); hits carry "
                + "scope, slug, snippet and score — read one in full as svc://memory/{scope}/{slug}.", """
                {"type": "object", "additionalProperties": false, "required": ["query"], "properties": {
                  "query": {"type": "string", "minLength": 1},
                  "scope": {"type": "string", "enum": ["user", "user-tenant", "user-target", "tenant", "target"],
                            "description": "omit to search every readable scope"},
                  "limit": {"type": "integer", "minimum": 1, "maximum": 50}}}""",
                Role.READ_ONLY, (c, a) -> Map.of("hits", memory.search(c, transport, required(a, "query"),
                        text(a, "scope"), integer(a, "limit").orElse(10)))));
        add(new Tool("add_to_knowledge", "Add durable, general team knowledge to the knowledge base (re-adding a "
                + "slug updates it). For short-lived or personal notes use memory instead. " + SEARCH_BEFORE_WRITE_RULE
                + " Here: search_knowledge, read a hit in full as svc://kb/{slug}, and re-add it under its slug.", """
                {"type": "object", "additionalProperties": false, "required": ["slug", "body"], "properties": {
                  "slug": {"type": "string", "pattern": "^[a-z0-9][a-z0-9._-]{0,127}$"},
                  "body": {"type": "string", "minLength": 1, "description": "Markdown"},
                  "metadata": {"type": "object", "description": "string labels such as kind, service"}}}""",
                Role.TENANT_ADMIN, (c, a) -> kb.add(c.tenantId(), required(a, "slug"), required(a, "body"),
                        object(a, "metadata"), c.sub()).entry()));
        add(new Tool("search_knowledge", "Search the team's knowledge base (runbooks, conventions, known issues) "
                + "by meaning and words; hits carry slug, snippet and score — read a whole entry as the resource "
                + "svc://kb/{slug}.", """
                {"type": "object", "additionalProperties": false, "required": ["query"], "properties": {
                  "query": {"type": "string", "minLength": 1},
                  "filters": {"type": "object", "description": "metadata the entries must contain, for example kind: runbook"},
                  "limit": {"type": "integer", "minimum": 1, "maximum": 50, "description": "hits (default 10)"}}}""",
                Role.READ_ONLY, (c, a) -> kb.result(c, transport, required(a, "query"), integer(a, "limit").orElse(10),
                        object(a, "filters")).body()));
        DocsTools.register(docs, this::add);
        add(new Tool("list_targets", "List the registered targets (name, product, host, port, fingerprint) this "
                + "tenant can act on. Read-only: targets are registered by operators, never by agents.",
                """
                {"type": "object", "additionalProperties": false, "properties": {
                  "product": {"type": "string", "description": "only targets of this product token, e.g. k8s"},
                  "cursor": {"type": "string", "description": "name of the last target of the previous page"},
                  "limit": {"type": "integer", "minimum": 1, "maximum": 500, "description": "page size (default 100)"}}}""",
                Role.READ_ONLY, (c, a) -> targets.list(c.tenantId(), text(a, "cursor"), integer(a, "limit").orElse(100),
                        text(a, "product"))));
        add(new Tool("svc_connector_list", "List connectors with their connector_id (<impl_id>-<version>, e.g. "
                + "k8s-1.x — not the bare product name), products and review status; only enabled operations can be "
                + "called.", """
                {"type": "object", "additionalProperties": false, "properties": {
                  "status": {"type": "string", "enum": ["staged", "enabled", "disabled", "broken", "all"]}}}""",
                Role.READ_ONLY, (c, a) -> Map.of("connectors", catalog.list(c.tenantId(), text(a, "status")))));
        add(new Tool("list_operation_groups", "List a connector's operation groups with when to use each; start "
                + "here, then search_operations within a group.", """
                {"type": "object", "additionalProperties": false, "required": ["connector_id"], "properties": {
                  "connector_id": {"type": "string", "description": "e.g. k8s-1.x (see svc_connector_list)"}}}""",
                Role.READ_ONLY, (c, a) -> Map.of("groups", catalog.groups(c.tenantId(), required(a, "connector_id")))));
        add(new Tool("search_operations", "Find a connector's operations by what they do; returns op_id, "
                + "description, safety level and whether approval is required.", """
                {"type": "object", "additionalProperties": false, "required": ["connector_id", "query"], "properties": {
                  "connector_id": {"type": "string"},
                  "query": {"type": "string", "minLength": 1, "description": "what you want to do, in words"},
                  "group": {"type": "string", "description": "only this group_key"},
                  "limit": {"type": "integer", "minimum": 1, "maximum": 50, "description": "hits (default 10)"}}}""",
                Role.READ_ONLY, (c, a) -> catalog.search(c, transport, required(a, "connector_id"),
                        required(a, "query"), text(a, "group"), integer(a, "limit").orElse(CatalogService.SEARCH_LIMIT_DEFAULT))));
        add(new Tool("preview_operation", "Show the exact request an operation would send (method, path, query, "
                + "redacted body) and its preview_hash, without sending it. Dangerous operations need that hash in "
                + "call_operation.", CALL_SCHEMA.formatted(""), Role.OPERATOR,
                (c, a) -> dispatcher.preview(c, callRequest(a, false))));
        add(new Tool("call_operation", "Call an operation on a target through the governance pipeline: "
                + "policy gate, credentials, audit. The answer's status is ok, error, denied or awaiting_approval "
                + "(then a human approves it; do not retry). Big results come back as a sample plus a handle for "
                + "result_query.", CALL_SCHEMA.formatted(CALL_EXTRAS),
                Role.OPERATOR, (c, a, progress) -> dispatcher.call(c, callRequest(a, true), progress)));
        add(new Tool("result_query", "Page through or query a stored result by its handle: offset/limit, or a "
                + "query with where, select, group_by, aggregates (COUNT SUM MIN MAX AVG) and order_by.", """
                {"type": "object", "additionalProperties": false, "required": ["handle_id"], "properties": {
                  "handle_id": {"type": "string"},
                  "offset": {"type": "integer", "minimum": 0},
                  "limit": {"type": "integer", "minimum": 1, "maximum": 500},
                  "query": {"type": "object", "description": "where [{field, op, value}], select [fields], group_by [fields], aggregates [{fn, field, as}], order_by [{field, direction}], limit"}}}""",
                Role.OPERATOR, (c, a) -> results.query(c.tenantId(), c.sub(), resultQuery(a))));
    }

    private static final String CALL_EXTRAS = """
            ,
              "work_ref": {"type": "string", "description": "change-ticket reference stamped on audit and approval rows"},
              "preview_hash": {"type": "string", "description": "preview_hash from preview_operation (dangerous ops)"}""";

    private static final String CALL_SCHEMA = """
            {"type": "object", "additionalProperties": false, "required": ["connector_id", "op_id", "target"], "properties": {
              "connector_id": {"type": "string", "description": "e.g. k8s-1.x"},
              "op_id": {"type": "string", "description": "from search_operations, e.g. k8s.pod.list"},
              "target": {"type": "string", "description": "target name or alias (list_targets)"},
              "params": {"type": "object", "description": "the operation's params (its JSON Schema is enforced)"}%s}}""";

    private void add(Tool tool) {
        tools.put(tool.name(), tool);
    }

    /** The tools this caller may use, in a stable order. */
    public List<Tool> visibleTo(Caller caller) {
        return tools.values().stream().filter(t -> caller.effectiveRole().includes(t.role())).toList();
    }

    public Optional<Tool> find(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    /**
     * Runs a tool. Dispatching tools are audited by the pipeline itself; every other tool call gets
     * its own audit row here (op_class read, op_id {@code <transport>.<tool>}, the caller's session).
     */
    public Object run(Tool tool, Caller caller, JsonNode args) {
        return run(tool, caller, args, DispatchProgress.NONE);
    }

    /** {@link #run(Tool, Caller, JsonNode)}, telling {@code progress} the steps of a dispatch. */
    Object run(Tool tool, Caller caller, JsonNode args, DispatchProgress progress) {
        // call_operation is audited by the pipeline, docs queries by the docs service (svc.docs.*, query hashed)
        boolean selfAudited = tool.name().equals("call_operation") || DocsTools.SELF_AUDITED.contains(tool.name());
        try {
            Object result = tool.run().apply(caller, args, progress);
            if (!selfAudited) {
                audited(caller, tool, "ok", Optional.empty());
            }
            return result;
        } catch (DomainException e) {
            if (!selfAudited) {
                audited(caller, tool, "error", Optional.of(e.code()));
            }
            throw e;
        }
    }

    private void audited(Caller caller, Tool tool, String status, Optional<String> errorCode) {
        audit.record(AuditLog.Entry.by(caller, AuditClass.READ, transport.wireName() + "." + tool.name()), status, errorCode,
                Optional.empty(), Map.of());
    }

    private static CallRequest callRequest(JsonNode a, boolean call) {
        JsonNode params = a.path("params");
        if (!params.isMissingNode() && !params.isNull() && !params.isObject()) {
            throw McpErrors.INVALID_PARAMS.error("params must be an object", Map.of("field", "params"));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> p = params.isObject() ? JsonMapping.mapper().convertValue(params, Map.class) : Map.of();
        return new CallRequest(required(a, "connector_id"), required(a, "op_id"), required(a, "target"), p,
                call ? text(a, "work_ref") : Optional.empty(), call ? text(a, "preview_hash") : Optional.empty(),
                Optional.empty());
    }

    private static ResultQuery resultQuery(JsonNode a) {
        ObjectNode copy = a.deepCopy();
        try {
            return JsonMapping.mapper().treeToValue(copy, ResultQuery.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
            throw CommonErrors.INVALID_QUERY.error("the result_query arguments are malformed: "
                    + e.getMessage().lines().findFirst().orElse(""), Map.of());
        }
    }

    static String required(JsonNode a, String name) {
        return text(a, name).orElseThrow(() -> McpErrors.INVALID_PARAMS.error("'" + name
                + "' is required", Map.of("field", name)));
    }

    static Optional<String> text(JsonNode a, String name) {
        JsonNode v = a.path(name);
        if (v.isMissingNode() || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isTextual()) {
            throw McpErrors.INVALID_PARAMS.error("'" + name + "' must be a string", Map.of("field", name));
        }
        return Optional.of(v.asText());
    }

    private static MemoryService.Write memoryWrite(JsonNode a) {
        JsonNode ttl = a.path("ttl");
        boolean persist = ttl.isNull();
        Optional<java.time.Instant> expires = Optional.empty();
        if (ttl.isTextual()) {
            try {
                expires = Optional.of(java.time.Instant.now().plus(java.time.Duration.parse(ttl.asText())));
            } catch (java.time.format.DateTimeParseException e) {
                throw McpErrors.INVALID_PARAMS.error("ttl must be an ISO 8601 duration such as P7D, or null",
                        Map.of("field", "ttl"));
            }
        }
        List<String> tags = new java.util.ArrayList<>();
        a.path("tags").forEach(t -> tags.add(t.asText()));
        return new MemoryService.Write(required(a, "scope"), text(a, "slug"), required(a, "body"), tags,
                text(a, "target_name"), expires, persist);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(JsonNode a, String name) {
        JsonNode v = a.path(name);
        if (v.isMissingNode() || v.isNull()) {
            return Map.of();
        }
        if (!v.isObject()) {
            throw McpErrors.INVALID_PARAMS.error("'" + name + "' must be an object", Map.of("field", name));
        }
        return JsonMapping.mapper().convertValue(v, Map.class);
    }

    static Optional<Integer> integer(JsonNode a, String name) {
        JsonNode v = a.path(name);
        if (v.isMissingNode() || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw McpErrors.INVALID_PARAMS.error("'" + name + "' must be an integer", Map.of("field", name));
        }
        return Optional.of(v.asInt());
    }
}
