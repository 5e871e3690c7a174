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
import picocli.CommandLine.Parameters;

/** {@code svc connector review} */
@Command(name = "review", description = "Show a connector's groups and operations with their review state.")
final class Review extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<connector_id>") String id;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.expand(ApiPaths.CONNECTOR, id), r -> {
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
        });
    }
}
