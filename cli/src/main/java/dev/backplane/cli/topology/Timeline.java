package dev.backplane.cli.topology;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code svc topology timeline} */
@Command(name = "timeline", description = "The tenant's topology changes, newest first.")
final class Timeline extends BackplaneCommand {
    @Option(names = "--cursor", paramLabel = "<version>", description = "continue after this entry (printed at the end)")
    String cursor;
    @Option(names = "--limit", paramLabel = "1..1000", description = "entries to show (default 50)") Integer limit;
    @Mixin TimeWindow window;
    @Option(names = "--target", paramLabel = "<target>", description = "changes touching this target or made by its refresh")
    String target;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.TOPOLOGY_TIMELINE + QueryString.of().add("cursor", cursor).add("limit", limit).add("since", window.since)
                .add("until", window.until).add("target", target), r -> {
            for (JsonNode e : r.path("changes")) {
                ctx.out().println(e.path("valid_from").asText() + "  " + e.path("change").asText() + "  "
                        + TopologyCommand.edge(e) + "  by " + e.path("changed_by").asText());
            }
            if (r.hasNonNull("next_cursor")) {
                ctx.out().println("(more: --cursor " + r.path("next_cursor").asText() + ")");
            }
        });
    }
}
