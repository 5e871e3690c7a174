package dev.backplane.kernel.app;

import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.catalog.CatalogTools;
import dev.backplane.kernel.dispatch.DispatchTools;
import dev.backplane.kernel.dispatch.Dispatcher;
import dev.backplane.kernel.docs.DocsService;
import dev.backplane.kernel.docs.DocsTools;
import dev.backplane.kernel.kb.KbService;
import dev.backplane.kernel.kb.KbTools;
import dev.backplane.kernel.memory.MemoryService;
import dev.backplane.kernel.memory.MemoryTools;
import dev.backplane.kernel.results.ResultQueryService;
import dev.backplane.kernel.retrieval.SearchLog;
import dev.backplane.kernel.targets.TargetService;
import dev.backplane.kernel.targets.TargetTools;
import dev.backplane.kernel.tools.Tool;
import dev.backplane.kernel.tools.ToolRegistry;
import java.util.ArrayList;
import java.util.List;

/**
 * Which capabilities offer agent tools, in the order {@code tools/list} and an agent's model see them (SPEC's table).
 * One registry per transport: the MCP endpoint's and the agent runs' differ only in the audit op_id and search-log
 * transport they record.
 */
public final class KernelTools {

    private KernelTools() {
    }

    /** The services the tools call: the ones the REST routes call. */
    public record Services(TargetService targets, CatalogService catalog, Dispatcher dispatcher,
                           ResultQueryService results, AuditLog audit, KbService kb, MemoryService memory,
                           DocsService docs) {
    }

    public static ToolRegistry registry(Services s, SearchLog.Transport transport) {
        List<Tool> tools = new ArrayList<>();
        tools.addAll(MemoryTools.of(s.memory(), transport));
        tools.addAll(KbTools.of(s.kb(), transport));
        tools.addAll(DocsTools.of(s.docs()));
        tools.addAll(TargetTools.of(s.targets()));
        tools.addAll(CatalogTools.of(s.catalog(), transport));
        tools.addAll(DispatchTools.of(s.dispatcher(), s.results()));
        return new ToolRegistry(transport.wireName(), s.audit(), tools);
    }
}
