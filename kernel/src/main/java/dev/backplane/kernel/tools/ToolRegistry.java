package dev.backplane.kernel.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The agent tools of one transport (the MCP endpoint, or the model loop of agent runs), in the order the capabilities
 * registered them. A tool the caller's role may not use is neither listed nor callable. No tool registers targets,
 * stages secrets or deletes kb entries (SPEC boundary rules). Every call of a tool that does not audit itself gets
 * one audit row here: op_class read, op_id {@code <transport>.<tool>}, the caller's session.
 */
public final class ToolRegistry {

    /**
     * SPEC's search-before-write rule ("Which store"), in its words. Told where an agent writes: the descriptions of
     * add_to_memory and add_to_knowledge, and the MCP server's instructions.
     */
    public static final String SEARCH_BEFORE_WRITE = "before adding, search first; if a matching entry exists, read it, "
            + "merge and re-add under the same slug rather than creating a near-duplicate slug";
    public static final String SEARCH_BEFORE_WRITE_RULE = "Search-before-write rule: " + SEARCH_BEFORE_WRITE + ".";

    private final Map<String, Tool> tools = new LinkedHashMap<>();
    private final AuditLog audit;
    private final String transport;

    /**
     * @param transport the transport's wire name ({@code mcp}, {@code agent}): the audit op_id's prefix
     * @param tools every capability's tools, in the order they are listed; a name twice is a wiring error
     */
    public ToolRegistry(String transport, AuditLog audit, List<Tool> tools) {
        this.transport = transport;
        this.audit = audit;
        for (Tool t : tools) {
            if (this.tools.putIfAbsent(t.name(), t) != null) {
                throw new IllegalArgumentException("two tools are named " + t.name());
            }
        }
    }

    /** Every tool, whoever asks (the generated reference, an agent definition's toolset check). */
    public List<Tool> all() {
        return List.copyOf(tools.values());
    }

    /** The tools this caller may use, in a stable order. */
    public List<Tool> visibleTo(Caller caller) {
        return tools.values().stream().filter(t -> caller.effectiveRole().includes(t.role())).toList();
    }

    public Optional<Tool> find(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    /** Runs a tool as {@code caller}; see the class comment for its audit row. A refusal is a {@link DomainException}. */
    public Object run(Tool tool, Caller caller, JsonNode args) {
        return run(tool, caller, args, ToolProgress.NONE);
    }

    /** {@link #run(Tool, Caller, JsonNode)}, telling {@code progress} the steps of a dispatch. */
    public Object run(Tool tool, Caller caller, JsonNode args, ToolProgress progress) {
        try {
            Object result = tool.run().apply(caller, args, progress);
            if (!tool.auditsItself()) {
                audited(caller, tool, "ok", Optional.empty());
            }
            return result;
        } catch (DomainException e) {
            if (!tool.auditsItself()) {
                audited(caller, tool, "error", Optional.of(e.code()));
            }
            throw e;
        }
    }

    private void audited(Caller caller, Tool tool, String status, Optional<String> errorCode) {
        audit.record(AuditLog.Entry.by(caller, AuditClass.READ, transport + "." + tool.name()), status, errorCode,
                Optional.empty(), Map.of());
    }
}
