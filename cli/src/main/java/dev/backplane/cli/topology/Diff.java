package dev.backplane.cli.topology;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc topology diff} */
@Command(name = "diff", description = "The edges at two times compared: added, removed, changed and unchanged. Times "
        + "are ISO 8601 or an age (30m, 24h, 7d, 2w).")
final class Diff extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<ts1>") String t1;
    @Parameters(index = "1", paramLabel = "<ts2>") String t2;
    @Option(names = "--changed-only", description = "leave out unchanged edges") boolean changedOnly;
    @Option(names = "--kind", paramLabel = "<edge-kind>", description = "only edges of this kind") String kind;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.TOPOLOGY_DIFF + QueryString.of().add("t1", t1).add("t2", t2)
                .add("changed_only", changedOnly ? true : null).add("kind", kind), r -> {
            TopologyCommand.counts(ctx, r.path("t1").asText() + " -> " + r.path("t2").asText() + ":", r.path("counts"));
            for (JsonNode e : r.path("edges")) {
                JsonNode edge = e.path("after").isNull() ? e.path("before") : e.path("after");
                ctx.out().println(String.format("%-9s %s", e.path("status").asText(), TopologyCommand.edge(edge)));
            }
            if (r.path("truncated").asBoolean()) {
                ctx.out().println("(truncated: narrow with --kind or --changed-only)");
            }
        });
    }
}
