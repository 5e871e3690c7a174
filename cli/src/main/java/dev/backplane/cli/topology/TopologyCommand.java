package dev.backplane.cli.topology;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.CliContext;
import picocli.CommandLine.Command;

/** {@code svc topology}: the tenant's topology graph — curated and discovered edges, traversals and history. */
@Command(name = "topology", description = "The topology graph: curated and discovered edges, dependencies, paths, "
        + "diffs and history [tenant_admin for annotate, unannotate and refresh].",
        subcommands = {Annotate.class, Unannotate.class, BulkImport.class, Dependencies.class, Dependents.class,
                PathCommand.class, Diff.class, History.class, ListEdges.class, Refresh.class, Timeline.class})
public final class TopologyCommand {

    static final String EDGE_KINDS = "runs-on, mounts, routes-through, belongs-to, authenticates-via, depends-on, "
            + "replicates-to, backed-up-by, resolves-to, allows";

    private TopologyCommand() {
    }

    /** One edge on one line: its ends with their kinds, the kind, source and flags. */
    static String edge(JsonNode e) {
        StringBuilder b = new StringBuilder();
        b.append(e.path("from_kind").asText()).append(' ').append(e.path("from").asText()).append("  -")
                .append(e.path("kind").asText()).append("->  ").append(e.path("to_kind").asText()).append(' ')
                .append(e.path("to").asText()).append("  [").append(e.path("source").asText());
        if (e.path("conflict").asBoolean()) {
            b.append(", CONFLICT");
        }
        if (e.path("stale").asBoolean()) {
            b.append(", stale");
        }
        b.append("]");
        return b.toString();
    }

    static void printEdge(CliContext ctx, JsonNode e) {
        ctx.out().println(edge(e) + "  id " + e.path("edge_id").asText());
        if (e.hasNonNull("note")) {
            ctx.out().println("  note: " + e.path("note").asText());
        }
        if (e.hasNonNull("evidence_url")) {
            ctx.out().println("  evidence: " + e.path("evidence_url").asText());
        }
    }

    static void counts(CliContext ctx, String label, JsonNode counts) {
        StringBuilder b = new StringBuilder(label);
        counts.fields().forEachRemaining(f -> {
            if (f.getValue().asInt() != 0) {
                b.append("  ").append(f.getKey().replace('_', ' ')).append(' ').append(f.getValue().asInt());
            }
        });
        ctx.out().println(b);
    }
}
