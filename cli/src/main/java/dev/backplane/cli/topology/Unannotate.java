package dev.backplane.cli.topology;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.RequestBody;
import java.util.List;
import java.util.UUID;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc topology unannotate} */
@Command(name = "unannotate", description = "Remove a curated edge, by its id or by <from> <kind> <to> [tenant_admin]. "
        + "Discovered edges go stale instead.")
final class Unannotate extends BackplaneCommand {
    @Parameters(arity = "1..3", paramLabel = "<edge-id> | <from> <kind> <to>") List<String> args;
    @Option(names = "--from-kind", paramLabel = "<node-kind>", description = "kind of <from>, when its name is ambiguous")
    String fromKind;
    @Option(names = "--to-kind", paramLabel = "<node-kind>", description = "kind of <to>, when its name is ambiguous")
    String toKind;

    @RequestBody
    record Body(UUID edgeId, String from, String fromKind, String kind, String to, String toKind) {
    }

    private Body body;

    @Override
    protected void validate() {
        if (args.size() == 1) {
            try {
                body = new Body(UUID.fromString(args.getFirst()), null, null, null, null, null);
            } catch (IllegalArgumentException e) {
                throw CliException.usage("give an edge id (a uuid) or <from> <kind> <to>; got '" + args.getFirst() + "'");
            }
        } else if (args.size() == 3) {
            body = new Body(null, args.get(0), fromKind, args.get(1), args.get(2), toKind);
        } else {
            throw CliException.usage("give an edge id or <from> <kind> <to>");
        }
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.TOPOLOGY_UNANNOTATE, body, r -> ctx.out().println("removed: "
                + TopologyCommand.edge(r.path("removed")) + "  id " + r.path("removed").path("edge_id").asText()));
    }
}
