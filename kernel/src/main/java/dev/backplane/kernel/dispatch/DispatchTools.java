package dev.backplane.kernel.dispatch;

import static dev.backplane.kernel.tools.ToolArgs.required;
import static dev.backplane.kernel.tools.ToolArgs.text;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.results.ResultQuery;
import dev.backplane.kernel.results.ResultQueryService;
import dev.backplane.kernel.tools.Tool;
import dev.backplane.kernel.tools.ToolErrors;
import dev.backplane.kernel.util.JsonMapping;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The governed call's agent tools: preview_operation, call_operation (audited by the pipeline itself, its steps told
 * to whoever watches) and result_query over the handle a big result comes back with.
 */
public final class DispatchTools {

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

    private DispatchTools() {
    }

    public static List<Tool> of(Dispatcher dispatcher, ResultQueryService results) {
        return List.of(Tool.of("preview_operation", "Show the exact request an operation would send (method, path, "
                + "query, redacted body) and its preview_hash, without sending it. Dangerous operations need that hash in "
                + "call_operation.", CALL_SCHEMA.formatted(""), Role.OPERATOR, Tool.Effect.READS,
                (c, a) -> dispatcher.preview(c, callRequest(a, false))),
                new Tool("call_operation", "Call an operation on a target through the governance pipeline: "
                + "policy gate, credentials, audit. The answer's status is ok, error, denied or awaiting_approval "
                + "(then a human approves it; do not retry). Big results come back as a sample plus a handle for "
                + "result_query.", CALL_SCHEMA.formatted(CALL_EXTRAS), Role.OPERATOR, Tool.Effect.WRITES, true,
                (c, a, progress) -> dispatcher.call(c, callRequest(a, true), step -> progress.reached(step.description()))),
                Tool.of("result_query", "Page through or query a stored result by its handle: offset/limit, or a "
                + "query with where, select, group_by, aggregates (COUNT SUM MIN MAX AVG) and order_by.", """
                {"type": "object", "additionalProperties": false, "required": ["handle_id"], "properties": {
                  "handle_id": {"type": "string"},
                  "offset": {"type": "integer", "minimum": 0},
                  "limit": {"type": "integer", "minimum": 1, "maximum": 500},
                  "query": {"type": "object", "description": "where [{field, op, value}], select [fields], group_by [fields], aggregates [{fn, field, as}], order_by [{field, direction}], limit"}}}""",
                Role.OPERATOR, Tool.Effect.READS, (c, a) -> results.query(c.tenantId(), c.sub(), resultQuery(a))));
    }

    private static CallRequest callRequest(JsonNode a, boolean call) {
        JsonNode params = a.path("params");
        if (!params.isMissingNode() && !params.isNull() && !params.isObject()) {
            throw ToolErrors.INVALID_PARAMS.error("params must be an object", Map.of("field", "params"));
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
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw CommonErrors.INVALID_QUERY.error("the result_query arguments are malformed: "
                    + e.getMessage().lines().findFirst().orElse(""), Map.of());
        }
    }
}
