package dev.backplane.kernel.mcp;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.kb.KbService;
import dev.backplane.kernel.memory.MemoryService;
import dev.backplane.kernel.runbooks.RunbookTemplates;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The resources an agent may list or read: the feature-maturity index ({@code svc://features}), the tenant's
 * published runbooks, and — found by search, read by template — kb and memory entries; and resource-not-found as
 * each revision answers it.
 */
final class McpResources {

    static final String FEATURES_URI = "svc://features";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private final KbService kb;
    private final MemoryService memory;
    private final RunbookTemplates runbooks;
    /** The feature-maturity index as JSON text: the {@code svc://features} resource. */
    private final String features;

    McpResources(KbService kb, MemoryService memory, RunbookTemplates runbooks, String features) {
        this.kb = kb;
        this.memory = memory;
        this.runbooks = runbooks;
        this.features = features;
    }

    static ObjectNode templates() {
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

    /**
     * The feature-maturity index and the tenant's published runbooks: the resources an agent may list (kb and
     * memory are found by search).
     */
    ObjectNode list(Caller caller) {
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
    static McpServer.RpcError notFound(String uri, boolean stateless, Map<String, Object> extra) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("uri", uri);
        data.putAll(extra);
        return new McpServer.RpcError(stateless ? McpServer.INVALID_PARAMS : McpServer.RESOURCE_NOT_FOUND,
                "resource not found: " + uri, data);
    }

    /** {@code svc://kb/{slug}}: the full body. Anything else is resource-not-found. */
    ObjectNode read(Caller caller, String uri, boolean stateless) {
        if (uri.equals(FEATURES_URI)) {
            return contents(uri, "application/json", features);
        }
        Matcher mem = Pattern.compile(
                "svc://memory/(user|user-tenant|user-target|tenant|target)/([a-z0-9][a-z0-9._-]{0,127})").matcher(uri);
        if (mem.matches()) {
            try {
                return contents(uri, "text/plain", memory.show(caller, mem.group(1), mem.group(2), Optional.empty()).body());
            } catch (DomainException notFound) {
                throw notFound(uri, stateless, Map.of("reason", notFound.code()));
            }
        }
        Matcher book = Pattern.compile("svc://runbook/([a-z0-9][a-z0-9-]{0,127})").matcher(uri);
        if (book.matches()) {
            return runbooks.published(caller.tenantId()).stream().filter(t -> t.slug().equals(book.group(1))).findFirst()
                    .map(t -> contents(uri, "application/yaml", t.source()))
                    .orElseThrow(() -> notFound(uri, stateless, Map.of()));
        }
        Matcher m = Pattern.compile("svc://kb/([a-z0-9][a-z0-9._-]{0,127})").matcher(uri);
        if (!m.matches()) {
            throw notFound(uri, stateless, Map.of());
        }
        KbService.Entry e;
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
}
