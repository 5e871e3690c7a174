package dev.backplane.kernel.docs;

import static dev.backplane.kernel.tools.ToolArgs.integer;
import static dev.backplane.kernel.tools.ToolArgs.required;
import static dev.backplane.kernel.tools.ToolArgs.text;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.tools.Tool;
import dev.backplane.kernel.tools.ToolErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The docs add-on's agent tools (experimental): search_docs, ask_docs and list_doc_collections.
 * A query must name its collection; a missing one is JSON-RPC -32602 with reason collection_required. The docs
 * service audits its queries itself (svc.docs.search / svc.docs.ask, the query hashed).
 */
public final class DocsTools {

    private static final String QUERY_SCHEMA = """
            {"type": "object", "additionalProperties": false, "required": ["query", "collection"], "properties": {
              "query": {"type": "string", "minLength": 1, "description": "what you want to know, in words"},
              "collection": {"description": "the collection key to search (list_doc_collections), several keys, or 'all' for every collection you may search",
                             "oneOf": [{"type": "string", "minLength": 1}, {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1}}]},
              "limit": {"type": "integer", "minimum": 1, "maximum": 50, "description": "passages to retrieve (default 10)"},
              "product": {"type": "string", "description": "only passages about this product (passed to the retrieval service)"},
              "version": {"type": "string", "description": "only passages about this product version"}}}""";

    private DocsTools() {
    }

    public static List<Tool> of(DocsService docs) {
        return List.of(Tool.of("search_docs", "Search vendor and product documentation held in an external doc "
                + "collection. You must name the collection (see list_doc_collections and its when_to_use); returns "
                + "ranked passages, each with a citation (collection, title, url, chunk id) to quote. Experimental.",
                QUERY_SCHEMA, Role.READ_ONLY, Tool.Effect.READS, (c, a) -> docs.search(c, query(a), "mcp"))
                        .auditedByItsCapability(),
                Tool.of("ask_docs", "Ask a question of a doc collection and get one extractive answer: "
                + "sentences quoted from the retrieved passages, each followed by [n] pointing at sources[n]. When the "
                + "collection holds nothing relevant the answer is exactly 'no grounded answer' — then say you do not "
                + "know rather than guessing. You must name the collection. Experimental.",
                QUERY_SCHEMA, Role.READ_ONLY, Tool.Effect.READS, (c, a) -> docs.ask(c, query(a), "mcp"))
                        .auditedByItsCapability(),
                Tool.of("list_doc_collections", "List the doc collections you may search: key, "
                + "description, products, vendor and when_to_use (which collection fits which question). Pass a key "
                + "as collection to search_docs or ask_docs.", """
                {"type": "object", "additionalProperties": false, "properties": {}}""",
                Role.READ_ONLY, Tool.Effect.READS, (c, a) -> Map.of("collections", docs.collections()
                        .searchable(c.tenantId()).stream().map(d -> d.view(true)).map(v -> Map.of("key", v.key(), "scope", v.scope(),
                                "description", v.description(), "product", v.product(),
                                "vendor", v.vendor().orElse(""), "when_to_use", v.whenToUse().orElse(""),
                                "capability", v.capability())).toList())));
    }

    private static DocsService.Query query(JsonNode a) {
        JsonNode col = a.path("collection");
        List<String> collections = new ArrayList<>();
        if (col.isTextual()) {
            collections.add(col.asText());
        } else if (col.isArray()) {
            for (JsonNode k : col) {
                if (!k.isTextual()) {
                    throw ToolErrors.INVALID_PARAMS.error("'collection' must be a string or a list of "
                            + "strings", Map.of("field", "collection"));
                }
                collections.add(k.asText());
            }
        } else if (!col.isMissingNode() && !col.isNull()) {
            throw ToolErrors.INVALID_PARAMS.error("'collection' must be a string or a list of strings",
                    Map.of("field", "collection"));
        }
        return new DocsService.Query(required(a, "query"), collections, integer(a, "limit"), text(a, "product"),
                text(a, "version"));
    }
}
