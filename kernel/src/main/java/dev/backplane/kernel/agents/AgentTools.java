package dev.backplane.kernel.agents;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The agent tools of SPEC §"Agent tools" a run may be given, and what a definition's {@code toolset}
 * means: the read-only tools by default ({@code {}}); {@code "tool": true} adds one (the three that
 * write need it), {@code "tool": false} takes one away.
 */
final class AgentTools {

    /** Tools that read; a run has them unless its toolset says {@code false}. */
    static final List<String> READ_ONLY = List.of("search_memory", "search_knowledge", "search_docs", "ask_docs",
            "list_doc_collections", "list_targets", "svc_connector_list", "list_operation_groups", "search_operations",
            "preview_operation", "result_query");

    /** Tools that write (memory, the knowledge base, a governed operation call); a run has them only when granted. */
    static final List<String> WRITES = List.of("add_to_memory", "add_to_knowledge", "call_operation");

    static final Set<String> ALL;

    static {
        Set<String> all = new TreeSet<>(READ_ONLY);
        all.addAll(WRITES);
        ALL = Set.copyOf(all);
    }

    private AgentTools() {
    }

    /** The tools a toolset gives a run, in SPEC's order. */
    static List<String> effective(Map<String, Boolean> toolset) {
        Map<String, Boolean> on = new LinkedHashMap<>();
        READ_ONLY.forEach(t -> on.put(t, true));
        WRITES.forEach(t -> on.put(t, false));
        on.putAll(toolset);
        return on.entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey).toList();
    }
}
