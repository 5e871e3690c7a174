package dev.backplane.cli.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.Json;
import dev.backplane.cli.common.Tables;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code svc connector ...}: the connector catalog and its review. */
@Command(name = "connector", description = "List, review and enable connectors and their operations.",
        subcommands = {ListConnectors.class, Review.class, Enable.class,
                Disable.class, EnableReads.class, EditGroup.class,
                EditOp.class, CatalogCmd.class, Ingest.class,
                IngestStatus.class, Prefer.class, Preferences.class})
public final class ConnectorCommand {

    /** A connector, then each group with its operations ({@code svc connector review}). */
    static void printReview(CliContext ctx, JsonNode r) {
        JsonNode c = r.path("connector");
        ctx.out().println(c.path("connector_id").asText() + "  status " + c.path("status").asText() + "  "
                + c.path("enabled_op_count").asInt() + "/" + c.path("operation_count").asInt()
                + " operations enabled  products " + String.join(",", Json.texts(c.path("products")))
                + "  secret fields " + String.join(",", Json.texts(r.path("secret_fields"))));
        for (JsonNode g : r.path("groups")) {
            ctx.out().println();
            ctx.out().println("[" + g.path("group_key").asText() + "] " + g.path("display_name").asText() + " ("
                    + g.path("enabled_op_count").asInt() + "/" + g.path("operation_count").asInt() + " enabled"
                    + (g.path("partial").asBoolean() ? ", partial" : "") + ") — " + g.path("when_to_use").asText());
            List<List<String>> rows = new ArrayList<>();
            for (JsonNode op : r.path("operations")) {
                if (op.path("group_key").asText().equals(g.path("group_key").asText())) {
                    rows.add(List.of(op.path("is_enabled").asBoolean() ? "on" : "off", op.path("op_id").asText(),
                            op.path("safety_level").asText(), op.path("requires_approval").asBoolean() ? "approval" : "",
                            op.path("description").asText()));
                }
            }
            Tables.print(ctx.out(), List.of("  ", "OP", "SAFETY", "GATE", "DESCRIPTION"), rows);
        }
    }
}
