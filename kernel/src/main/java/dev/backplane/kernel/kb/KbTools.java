package dev.backplane.kernel.kb;

import static dev.backplane.kernel.tools.ToolArgs.integer;
import static dev.backplane.kernel.tools.ToolArgs.object;
import static dev.backplane.kernel.tools.ToolArgs.required;

import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.retrieval.SearchLog;
import dev.backplane.kernel.tools.Tool;
import dev.backplane.kernel.tools.ToolRegistry;
import java.util.List;

/** The knowledge base's agent tools: add_to_knowledge and search_knowledge, calling the service REST calls. */
public final class KbTools {

    private KbTools() {
    }

    /** The tools, their searches recorded under {@code transport}. */
    public static List<Tool> of(KbService kb, SearchLog.Transport transport) {
        return List.of(Tool.of("add_to_knowledge", "Add durable, general team knowledge to the knowledge base (re-adding "
                + "a slug updates it). For short-lived or personal notes use memory instead. "
                + ToolRegistry.SEARCH_BEFORE_WRITE_RULE + " Here: search_knowledge, read a hit in full as svc://kb/{slug}, "
                + "and re-add it under its slug.", """
                {"type": "object", "additionalProperties": false, "required": ["slug", "body"], "properties": {
                  "slug": {"type": "string", "pattern": "^[a-z0-9][a-z0-9._-]{0,127}$"},
                  "body": {"type": "string", "minLength": 1, "description": "Markdown"},
                  "metadata": {"type": "object", "description": "string labels such as kind, service"}}}""",
                Role.TENANT_ADMIN, Tool.Effect.WRITES, (c, a) -> kb.add(c.tenantId(), required(a, "slug"),
                        required(a, "body"), object(a, "metadata"), c.sub()).entry()),
                Tool.of("search_knowledge", "Search the team's knowledge base (runbooks, conventions, known issues) "
                + "by meaning and words; hits carry slug, snippet and score — read a whole entry as the resource "
                + "svc://kb/{slug}.", """
                {"type": "object", "additionalProperties": false, "required": ["query"], "properties": {
                  "query": {"type": "string", "minLength": 1},
                  "filters": {"type": "object", "description": "metadata the entries must contain, for example kind: runbook"},
                  "limit": {"type": "integer", "minimum": 1, "maximum": 50, "description": "hits (default 10)"}}}""",
                Role.READ_ONLY, Tool.Effect.READS, (c, a) -> kb.result(c, transport, required(a, "query"),
                        integer(a, "limit").orElse(10), object(a, "filters")).body()));
    }
}
