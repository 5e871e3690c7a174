package dev.backplane.kernel.memory;

import static dev.backplane.kernel.tools.ToolArgs.integer;
import static dev.backplane.kernel.tools.ToolArgs.required;
import static dev.backplane.kernel.tools.ToolArgs.text;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.retrieval.SearchLog;
import dev.backplane.kernel.tools.Tool;
import dev.backplane.kernel.tools.ToolErrors;
import dev.backplane.kernel.tools.ToolRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The memory's agent tools: add_to_memory and search_memory, calling the service the REST routes call. */
public final class MemoryTools {

    private MemoryTools() {
    }

    /** The tools, their searches recorded under {@code transport}. */
    public static List<Tool> of(MemoryService memory, SearchLog.Transport transport) {
        return List.of(Tool.of("add_to_memory", "Remember something scoped and possibly short-lived: a preference, a "
                + "convention, a gotcha about a target. Scopes: user (you, every tenant), user-tenant (you, this tenant), "
                + "user-target (you, one target), tenant (everyone here; tenant_admin only), target (everyone touching a "
                + "target). User scopes expire after 7 days unless ttl is given; ttl null keeps it forever. "
                + ToolRegistry.SEARCH_BEFORE_WRITE_RULE + " Here: search_memory, read a hit in full as "
                + "svc://memory/{scope}/{slug}, and re-add it with its scope and slug.", """
                {"type": "object", "additionalProperties": false, "required": ["body", "scope"], "properties": {
                  "body": {"type": "string", "minLength": 1},
                  "scope": {"type": "string", "enum": ["user", "user-tenant", "user-target", "tenant", "target"]},
                  "target_name": {"type": "string", "description": "required for target and user-target"},
                  "tags": {"type": "array", "items": {"type": "string"}},
                  "ttl": {"type": ["string", "null"], "description": "ISO 8601 duration such as P7D or PT12H; null keeps forever"},
                  "slug": {"type": "string", "pattern": "^[a-z0-9][a-z0-9._-]{0,127}$"}}}""",
                Role.OPERATOR, Tool.Effect.WRITES, (c, a) -> memory.add(c, write(a))),
                Tool.of("search_memory", "Search the memory you can see (your own, this tenant's, targets'); hits carry "
                + "scope, slug, snippet and score — read one in full as svc://memory/{scope}/{slug}.", """
                {"type": "object", "additionalProperties": false, "required": ["query"], "properties": {
                  "query": {"type": "string", "minLength": 1},
                  "scope": {"type": "string", "enum": ["user", "user-tenant", "user-target", "tenant", "target"],
                            "description": "omit to search every readable scope"},
                  "limit": {"type": "integer", "minimum": 1, "maximum": 50}}}""",
                Role.READ_ONLY, Tool.Effect.READS, (c, a) -> Map.of("hits", memory.search(c, transport,
                        required(a, "query"), text(a, "scope"), integer(a, "limit").orElse(10)))));
    }

    private static MemoryService.Write write(JsonNode a) {
        JsonNode ttl = a.path("ttl");
        boolean persist = ttl.isNull();
        Optional<Instant> expires = Optional.empty();
        if (ttl.isTextual()) {
            try {
                expires = Optional.of(Instant.now().plus(Duration.parse(ttl.asText())));
            } catch (DateTimeParseException e) {
                throw ToolErrors.INVALID_PARAMS.error("ttl must be an ISO 8601 duration such as P7D, or null",
                        Map.of("field", "ttl"));
            }
        }
        List<String> tags = new ArrayList<>();
        a.path("tags").forEach(t -> tags.add(t.asText()));
        return new MemoryService.Write(required(a, "scope"), text(a, "slug"), required(a, "body"), tags,
                text(a, "target_name"), expires, persist);
    }
}
