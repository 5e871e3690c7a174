package dev.backplane.cli.topology;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc topology history} */
@Command(name = "history", description = "A node's history, newest first; with --include-edges every change of every "
        + "edge touching it.")
final class History extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<node>") String node;
    @Option(names = "--include-edges", description = "also the versions of the edges touching the node")
    boolean includeEdges;
    @Option(names = "--limit", paramLabel = "1..5000", description = "newest entries to show (default 100)")
    Integer limit;
    @Mixin TimeWindow window;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.TOPOLOGY_HISTORY + QueryString.of().add("node", node).add("include_edges", includeEdges ? true
                : null).add("limit", limit).add("since", window.since).add("until", window.until), r -> {
            for (JsonNode e : r.path("entries")) {
                String what = e.has("edge") ? TopologyCommand.edge(e.path("edge"))
                        : e.path("node").path("kind").asText() + " " + e.path("node").path("name").asText();
                ctx.out().println(e.path("at").asText() + "  " + e.path("change").asText() + "  " + what + "  by "
                        + e.path("changed_by").asText());
            }
        });
    }
}
