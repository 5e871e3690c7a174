package dev.backplane.cli.topology;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc topology path} */
@Command(name = "path", description = "A shortest directed path between two nodes over edges discovery still sees.")
final class PathCommand extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<from>") String from;
    @Parameters(index = "1", paramLabel = "<to>") String to;
    @Option(names = "--max-hops", paramLabel = "1..32", description = "longest path to look for (default 8)")
    Integer maxHops;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.TOPOLOGY_PATH + QueryString.of().add("from", from).add("to", to).add("max_hops", maxHops), r -> {
            if (!r.path("found").asBoolean()) {
                ctx.out().println("no path from " + r.path("from").asText() + " to " + r.path("to").asText()
                        + " within " + r.path("max_hops").asInt() + " hops");
                return;
            }
            ctx.out().println(r.path("hops").size() + " hops");
            for (JsonNode h : r.path("hops")) {
                ctx.out().println("  " + TopologyCommand.edge(h));
            }
        });
    }
}
