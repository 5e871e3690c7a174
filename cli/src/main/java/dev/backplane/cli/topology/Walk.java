package dev.backplane.cli.topology;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** What {@code dependencies} and {@code dependents} share: a breadth-first walk from one node. */
abstract class Walk extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<name|alias>", description = "a node, a target's name or alias, or <kind>:<name>")
    String node;
    @Option(names = "--depth", paramLabel = "1..64", description = "hops to follow (default 16)") Integer depth;
    @Option(names = "--include-stale", description = "also follow discovered edges no longer seen")
    boolean includeStale;
    @Option(names = "--kind", paramLabel = "<edge-kind>[,...]", description = "follow only these edge kinds")
    String kind;
    @Option(names = "--node-kind", paramLabel = "<node-kind>", description = "show only nodes of this kind")
    String nodeKind;

    abstract String path();

    @Override
    protected void execute(Session s) {
        get(s, path() + QueryString.of().add("node", node).add("depth", depth).add("include_stale", includeStale ? true
                : null).add("kind", kind).add("node_kind", nodeKind), r -> {
            Tables.print(ctx, "none", List.of("DEPTH", "KIND", "NAME", "VIA", "EDGE", "SOURCE"),
                    Tables.rows(r.path("nodes"), n -> List.of(n.path("depth").asText(), n.path("kind").asText(),
                            n.path("name").asText(), n.path("via").asText(), n.path("edge_kind").asText()
                                    + (n.path("stale").asBoolean() ? " (stale)" : ""), n.path("source").asText())));
            if (r.path("truncated").asBoolean()) {
                ctx.out().println("(truncated: narrow with --depth, --kind or --node-kind)");
            }
            for (JsonNode loop : r.path("cycles")) {
                List<String> keys = new ArrayList<>();
                loop.forEach(k -> keys.add(k.asText()));
                ctx.out().println("loop: " + String.join(", ", keys));
            }
            if (r.path("cycles_truncated").asBoolean()) {
                ctx.out().println("(loops cut: more loops, or more nodes in one, than shown)");
            }
        });
    }
}
