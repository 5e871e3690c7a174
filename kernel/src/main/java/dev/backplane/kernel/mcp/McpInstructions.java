package dev.backplane.kernel.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.tools.ToolRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

/**
 * What the server says about itself: the handshake's {@code initialize} answer and the stateless revision's
 * {@code server/discover}, with their capabilities, server info and instructions (how to use the backplane, the
 * search-before-write rule, the maturity labels, then the tenant's operational conventions).
 */
final class McpInstructions {

    static final String INSTRUCTIONS = "Every operation goes through the backplane's policy gate and is audited. "
            + "Find a connector (svc_connector_list), its groups and operations (list_operation_groups, "
            + "search_operations), a target (list_targets), then preview_operation and call_operation. "
            + "awaiting_approval means a human must approve: do not retry. Large results come back with a handle "
            + "for result_query.";

    /** SPEC's rule for the two stores, as the instructions tell it (the write tools' descriptions repeat it). */
    static final String SEARCH_BEFORE_WRITE = "Memory (scoped, shorter-lived: preferences, conventions, gotchas) and "
            + "the knowledge base (durable team knowledge). " + ToolRegistry.SEARCH_BEFORE_WRITE_RULE + " Search with "
            + "search_memory or search_knowledge, read a hit in full (svc://memory/{scope}/{slug}, svc://kb/{slug}), "
            + "then write with add_to_memory or add_to_knowledge.";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private final String version;
    /** The tenant's operational conventions, packed within their token budget (empty when there are none). */
    private final Function<UUID, String> conventions;
    /** What the instructions say after {@link #INSTRUCTIONS}: the search-before-write rule and the maturity labels. */
    private final String rules;

    /** {@code index}: the feature-maturity index (the {@code svc://features} resource) as a JSON tree. */
    McpInstructions(String version, Function<UUID, String> conventions, JsonNode index) {
        this.version = version;
        this.conventions = conventions;
        this.rules = SEARCH_BEFORE_WRITE + "\n\n" + maturity(index);
    }

    /** The handshake: settles on the version asked for when it is a handshake version, else the newest one. */
    ObjectNode initialize(UUID tenantId, JsonNode params) {
        String asked = params.path("protocolVersion").asText("");
        String chosen = McpServer.HANDSHAKE_VERSIONS.contains(asked) ? asked : McpServer.HANDSHAKE_VERSIONS.getFirst();
        ObjectNode r = NODES.objectNode();
        r.put("protocolVersion", chosen);
        r.set("capabilities", capabilities());
        r.set("serverInfo", serverInfo());
        r.put("instructions", instructions(tenantId));
        return r;
    }

    ObjectNode discover(UUID tenantId) {
        ObjectNode r = NODES.objectNode();
        ArrayNode versions = r.putArray("supportedVersions");
        McpServer.ALL_VERSIONS.forEach(versions::add);
        r.set("capabilities", capabilities());
        // the server's identity travels in the result's _meta (server/discover, "DiscoverResult"), set by handle()
        r.put("instructions", instructions(tenantId));
        return r;
    }

    /**
     * The instructions of the handshake ({@code initialize}) and of the stateless revision's
     * {@code server/discover}: how to use the backplane, then the tenant's operational conventions.
     */
    String instructions(UUID tenantId) {
        String packed = conventions.apply(tenantId);
        String told = INSTRUCTIONS + "\n\n" + rules;
        return packed.isEmpty() ? told : told + "\n\n" + packed;
    }

    /**
     * One line of the labels SPEC gives (GA: memory, kb; experimental: docs; Beta: scheduler), in the index's order,
     * and where the whole index is.
     */
    static String maturity(JsonNode index) {
        Map<String, List<String>> byLabel = new LinkedHashMap<>();
        for (JsonNode f : index.path("features")) {
            if (f.path("spec_labelled").asBoolean()) {
                byLabel.computeIfAbsent(f.path("maturity").asText(), k -> new ArrayList<>())
                        .add(f.path("key").asText());
            }
        }
        List<String> parts = byLabel.entrySet().stream().map(e -> String.join(", ", e.getValue()) + " "
                + (e.getValue().size() == 1 ? "is " : "are ") + e.getKey()).toList();
        return "Feature maturity: " + String.join("; ", parts) + ". The whole index (every capability, and the "
                + "boundaries that may move) is the resource " + McpResources.FEATURES_URI + ".";
    }

    /** The same in every revision; no {@code prompts}, so the stateless revision answers no {@code prompts/*}. */
    static ObjectNode capabilities() {
        ObjectNode caps = NODES.objectNode();
        caps.putObject("tools").put("listChanged", false);
        caps.putObject("resources");
        caps.putObject("completions");
        caps.putObject("logging");
        return caps;
    }

    ObjectNode serverInfo() {
        ObjectNode info = NODES.objectNode();
        info.put("name", "svc-backplane");
        info.put("title", "svc governance backplane");
        info.put("version", version);
        return info;
    }
}
