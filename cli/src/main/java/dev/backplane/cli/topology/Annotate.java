package dev.backplane.cli.topology;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.RequestBody;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc topology annotate} */
@Command(name = "annotate", description = "Add a curated edge, or change its note and evidence [tenant_admin]. "
        + "Edge kinds: " + TopologyCommand.EDGE_KINDS + ".")
final class Annotate extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<from>", description = "a node name, or a target's name or alias")
    String from;
    @Parameters(index = "1", paramLabel = "<kind>", description = "the edge kind") String kind;
    @Parameters(index = "2", paramLabel = "<to>", description = "a node name, or a target's name or alias") String to;
    @Option(names = "--from-kind", paramLabel = "<node-kind>", description = "kind of <from> (needed to create a node)")
    String fromKind;
    @Option(names = "--to-kind", paramLabel = "<node-kind>", description = "kind of <to> (needed to create a node)")
    String toKind;
    @Option(names = "--note", paramLabel = "<text>", description = "why the edge holds (at most 2000 characters)")
    String note;
    @Option(names = "--evidence-url", paramLabel = "<url>", description = "where it is shown (http(s), at most 2000)")
    String evidenceUrl;

    @RequestBody
    record Edge(String from, String fromKind, String kind, String to, String toKind, String note, String evidenceUrl) {
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.TOPOLOGY_EDGES, new Edge(from, fromKind, kind, to, toKind, note, evidenceUrl), r -> {
            ctx.out().println(r.path("change").asText() + ": " + TopologyCommand.edge(r.path("edge")) + "  id "
                    + r.path("edge").path("edge_id").asText());
            if (r.path("edge").path("conflict").asBoolean()) {
                ctx.out().println("conflict: another source names a different end for this kind (svc topology "
                        + "list-edges --conflicts)");
            }
        });
    }
}
