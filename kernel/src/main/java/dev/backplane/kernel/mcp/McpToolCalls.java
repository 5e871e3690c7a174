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
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code tools/list} and {@code tools/call}: the tools the caller's role sees, and one call with its progress and
 * log notifications; what a tool refuses is a tool result with {@code isError}, except the argument errors SPEC
 * makes -32602.
 */
final class McpToolCalls {

    /** The codes SPEC answers as JSON-RPC -32602 besides every {@code invalid_*} code. */
    private static final Set<ErrorCode> ARGUMENT_ERRORS = Set.of(CatalogErrors.UNKNOWN_CONNECTOR,
            CatalogErrors.CONNECTOR_NOT_INGESTED, CatalogErrors.UNKNOWN_OPERATION, CommonErrors.INSUFFICIENT_ROLE,
            MemoryErrors.TARGET_NAME_REQUIRED, DocsErrors.COLLECTION_REQUIRED, DocsErrors.COLLECTION_NOT_FOUND);

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private final ToolRegistry tools;

    McpToolCalls(ToolRegistry tools) {
        this.tools = tools;
    }

    ObjectNode list(Caller caller) {
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

    ObjectNode call(Caller caller, JsonNode params, McpNotifier notifier) {
        if (!params.path("name").isTextual()) {
            throw new McpServer.RpcError(McpServer.INVALID_PARAMS, "tools/call needs params.name",
                    Map.of("reason", "missing_name"));
        }
        String name = params.path("name").asText();
        JsonNode args = params.path("arguments");
        if (!args.isMissingNode() && !args.isNull() && !args.isObject()) {
            throw new McpServer.RpcError(McpServer.INVALID_PARAMS, "arguments must be an object",
                    Map.of("reason", "invalid_arguments"));
        }
        Tool tool = tools.find(name).filter(t -> caller.effectiveRole().includes(t.role()))
                .orElseThrow(() -> new McpServer.RpcError(McpServer.INVALID_PARAMS, "unknown tool: " + name,
                        Map.of("reason", "unknown_tool", "tools",
                                tools.visibleTo(caller).stream().map(Tool::name).toList())));
        Object out;
        notifier.start("running " + name);
        try {
            out = tools.run(tool, caller, args.isObject() ? args : NODES.objectNode(), notifier);
            if (out instanceof ResultEnvelope env) {
                notifier.outcome(env);
            }
        } catch (DomainException e) {
            if (isArgumentError(e)) {
                Map<String, Object> data = new LinkedHashMap<>(e.extras());
                data.put("reason", e.code());
                throw new McpServer.RpcError(McpServer.INVALID_PARAMS, e.getMessage(), data);
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

    /** Whether a domain error is an error in the tool's arguments (-32602) rather than a tool result with isError. */
    static boolean isArgumentError(DomainException e) {
        return e.code().startsWith("invalid")
                || ARGUMENT_ERRORS.stream().anyMatch(c -> c.code().equals(e.code()) && c.kind() == e.kind());
    }

    /** A refusal the agent should read (not found, forbidden, ...): a tool result flagged as an error. */
    static ObjectNode toolError(DomainException e) {
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
