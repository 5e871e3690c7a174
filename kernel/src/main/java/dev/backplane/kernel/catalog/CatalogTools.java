package dev.backplane.kernel.catalog;

import static dev.backplane.kernel.tools.ToolArgs.integer;
import static dev.backplane.kernel.tools.ToolArgs.required;
import static dev.backplane.kernel.tools.ToolArgs.text;

import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.retrieval.SearchLog;
import dev.backplane.kernel.tools.Tool;
import java.util.List;
import java.util.Map;

/** The catalog's agent tools: svc_connector_list, list_operation_groups and search_operations. */
public final class CatalogTools {

    private CatalogTools() {
    }

    /** The tools, their operation searches recorded under {@code transport}. */
    public static List<Tool> of(CatalogService catalog, SearchLog.Transport transport) {
        return List.of(Tool.of("svc_connector_list", "List connectors with their connector_id (<impl_id>-<version>, e.g. "
                + "k8s-1.x — not the bare product name), products and review status; only enabled operations can be "
                + "called.", """
                {"type": "object", "additionalProperties": false, "properties": {
                  "status": {"type": "string", "enum": ["staged", "enabled", "disabled", "broken", "all"]}}}""",
                Role.READ_ONLY, Tool.Effect.READS, (c, a) -> Map.of("connectors", catalog.list(c.tenantId(),
                        text(a, "status")))),
                Tool.of("list_operation_groups", "List a connector's operation groups with when to use each; start "
                + "here, then search_operations within a group.", """
                {"type": "object", "additionalProperties": false, "required": ["connector_id"], "properties": {
                  "connector_id": {"type": "string", "description": "e.g. k8s-1.x (see svc_connector_list)"}}}""",
                Role.READ_ONLY, Tool.Effect.READS, (c, a) -> Map.of("groups", catalog.groups(c.tenantId(),
                        required(a, "connector_id")))),
                Tool.of("search_operations", "Find a connector's operations by what they do; returns op_id, "
                + "description, safety level and whether approval is required.", """
                {"type": "object", "additionalProperties": false, "required": ["connector_id", "query"], "properties": {
                  "connector_id": {"type": "string"},
                  "query": {"type": "string", "minLength": 1, "description": "what you want to do, in words"},
                  "group": {"type": "string", "description": "only this group_key"},
                  "limit": {"type": "integer", "minimum": 1, "maximum": 50, "description": "hits (default 10)"}}}""",
                Role.READ_ONLY, Tool.Effect.READS, (c, a) -> catalog.search(c, transport, required(a, "connector_id"),
                        required(a, "query"), text(a, "group"),
                        integer(a, "limit").orElse(CatalogService.SEARCH_LIMIT_DEFAULT))));
    }
}
