package dev.backplane.cli.topology;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Limits;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc topology list-edges} */
@Command(name = "list-edges", description = "Current edges, filtered.")
final class ListEdges extends BackplaneCommand {
    @Option(names = "--conflicts", description = "only edges flagged as contradicting another source")
    boolean conflicts;
    @Option(names = "--from", paramLabel = "<name>", description = "edges leaving this node") String from;
    @Option(names = "--to", paramLabel = "<name>", description = "edges entering this node") String to;
    @Option(names = "--kind", paramLabel = "<edge-kind>", description = "one of " + TopologyCommand.EDGE_KINDS)
    String kind;
    @Option(names = "--source", paramLabel = "curated|auto", description = "who made the edge") String source;
    @Option(names = "--limit", paramLabel = "1..1000", description = "edges to show (default 200)") Integer limit;
    @Option(names = "--offset", description = "skip this many") Integer offset;

    @Override
    protected void validate() {
        Limits.check(offset, 0, Integer.MAX_VALUE, "--offset");
        if (source != null && !source.equals("curated") && !source.equals("auto")) {
            throw CliException.usage("--source must be curated or auto, got " + source);
        }
    }

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.TOPOLOGY_EDGES + QueryString.of().add("conflicts", conflicts ? true : null).add("from", from)
                .add("to", to).add("kind", kind).add("source", source).add("limit", limit).add("offset", offset), r -> {
            Tables.print(ctx, "no edges", List.of("FROM", "KIND", "TO", "SOURCE", "FLAGS", "ID"),
                    Tables.rows(r.path("edges"), e -> List.of(e.path("from_kind").asText() + " " + e.path("from").asText(),
                            e.path("kind").asText(), e.path("to_kind").asText() + " " + e.path("to").asText(),
                            e.path("source").asText(), (e.path("conflict").asBoolean() ? "conflict " : "")
                                    + (e.path("stale").asBoolean() ? "stale" : ""), e.path("edge_id").asText())));
            if (r.path("more").asBoolean()) {
                ctx.out().println("(more: --offset " + ((offset == null ? 0 : offset) + r.path("edges").size()) + ")");
            }
        });
    }
}
