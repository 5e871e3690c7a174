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
        JsonNode auth = r.path("auth");
        if (auth.isObject()) {
            // what a target of an ingested connector is called with: the scheme and its settings, no secret value
            StringBuilder line = new StringBuilder("auth " + auth.path("scheme").asText());
            auth.path("settings").properties().forEach(e -> line.append("  ").append(e.getKey()).append('=')
                    .append(e.getValue().asText()));
            ctx.out().println(line + "  base path " + (r.path("base_path").asText("").isEmpty() ? "/"
                    : r.path("base_path").asText()));
        }
        for (JsonNode g : r.path("groups")) {
            ctx.out().println();
            ctx.out().println("[" + g.path("group_key").asText() + "] " + g.path("display_name").asText() + " ("
                    + g.path("enabled_op_count").asInt() + "/" + g.path("operation_count").asInt() + " enabled"
                    + (g.path("partial").asBoolean() ? ", partial" : "") + ") — " + g.path("when_to_use").asText());
            List<List<String>> rows = new ArrayList<>();
            for (JsonNode op : r.path("operations")) {
                if (op.path("group_key").asText().equals(g.path("group_key").asText())) {
                    rows.add(List.of(op.path("is_enabled").asBoolean() ? "on" : "off", op.path("op_id").asText(),
                            opClass(op), op.path("safety_level").asText(),
                            op.path("requires_approval").asBoolean() ? "approval" : "",
                            op.path("classification_reason").asText(""), op.path("description").asText()));
                }
            }
            Tables.print(ctx, List.of("  ", "OP", "CLASS", "SAFETY", "GATE", "WHY", "DESCRIPTION"), rows);
        }
        JsonNode rules = r.path("classification_rules");
        if (rules.isArray() && !rules.isEmpty()) {
            ctx.out().println();
            ctx.out().println("Classification rules applied at ingest (an edit-op override beats them):");
            for (JsonNode rule : rules) {
                ctx.out().println("  rule " + rule.path("rule").asInt() + " " + rule.path("match") + " set "
                        + rule.path("set") + " on " + String.join(", ", Json.texts(rule.path("op_ids"))) + " — "
                        + rule.path("reason").asText());
            }
        }
        if (r.path("operations").findValues("op_class_overridden").stream().anyMatch(JsonNode::asBoolean)) {
            ctx.out().println();
            ctx.out().println("CLASS* = set by an admin (svc connector edit-op --op-class)");
        }
    }

    /** The class as review shows it: a trailing * when the tenant's admin set it. */
    static String opClass(JsonNode op) {
        return op.path("op_class").asText() + (op.path("op_class_overridden").asBoolean() ? "*" : "");
    }
}
