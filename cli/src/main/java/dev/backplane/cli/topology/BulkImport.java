package dev.backplane.cli.topology;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc topology bulk-import} */
@Command(name = "bulk-import", description = "Import curated edges from a JSON file: a list of {from, kind, to, "
        + "from_kind, to_kind, note, evidence_url} (or {\"edges\": [...]}); at most 100,000. Any invalid edge refuses "
        + "the whole file with every problem listed.")
final class BulkImport extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<file>", description = "the JSON file (- reads stdin)") String file;
    @Option(names = "--dry-run", description = "show the plan only: no writes, no audit row, no broadcast event")
    boolean dryRun;

    private JsonNode edges;

    @Override
    protected void validate() {
        JsonNode doc;
        try {
            byte[] bytes = file.equals("-") ? ctx.in().readAllBytes() : Files.readAllBytes(Path.of(file));
            doc = dev.backplane.cli.common.Http.JSON.readTree(bytes);
        } catch (IOException e) {
            throw CliException.usage("cannot read " + file + " as JSON: " + e.getMessage());
        }
        edges = doc != null && doc.isObject() ? doc.path("edges") : doc;
        if (edges == null || !edges.isArray()) {
            throw CliException.usage(file + ": expected a JSON list of edges or {\"edges\": [...]}");
        }
    }

    @Override
    protected void execute(Session s) {
        ObjectNode body = dev.backplane.cli.common.Http.JSON.createObjectNode();
        body.set("edges", edges);
        body.put("dry_run", dryRun);
        send(s, "POST", ApiPaths.TOPOLOGY_BULK, body, r -> TopologyCommand.counts(ctx, (dryRun ? "plan (dry run, "
                + "nothing written): " : "imported: ") + r.path("edges").asInt() + " edges;",
                r.path(dryRun ? "plan" : "result")));
    }
}
