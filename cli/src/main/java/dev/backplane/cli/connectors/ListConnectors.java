package dev.backplane.cli.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.Json;
import dev.backplane.cli.common.Tables;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc connector list} */
@Command(name = "list", description = "Connectors with their review status (broken plugins show why; catalog-index entries not "
        + "ingested yet show the command that ingests them).")
final class ListConnectors extends BackplaneCommand {
    @Option(names = "--status", paramLabel = "staged|enabled|disabled|broken|not_ingested|all", description = "filter (default all)")
    String status;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.CONNECTORS + (status == null ? "" : "?status=" + status), list -> {
            List<List<String>> rows = new ArrayList<>();
            for (JsonNode c : list) {
                boolean broken = c.path("status").asText().equals("broken");
                rows.add(List.of(c.path("connector_id").asText(), c.path("status").asText(),
                        broken ? "" : String.join(",", Json.texts(c.path("products"))),
                        broken ? "" : c.path("enabled_op_count").asInt() + "/" + c.path("operation_count").asInt(),
                        broken ? c.path("plugin_file").asText() + ": " + Json.str(c.path("reason"))
                                : String.join(" ", Json.texts(c.path("supported_versions")))
                                + (c.path("source").asText().equals("ingested") ? " (ingested)" : "")
                                + (Json.str(c.path("reason")).isEmpty() ? "" : " — " + Json.str(c.path("reason")))));
            }
            if (rows.isEmpty()) {
                ctx.out().println("no connectors" + (status == null ? "" : " with status " + status));
                return;
            }
            Tables.print(ctx, List.of("CONNECTOR", "STATUS", "PRODUCTS", "ENABLED OPS", "VERSIONS / REASON"), rows);
        });
    }
}
