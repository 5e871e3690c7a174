package dev.backplane.cli.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.Tables;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code svc connector preferences} */
@Command(name = "preferences", description = "The tenant's preferred implementation per product.")
final class Preferences extends BackplaneCommand {
    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.CONNECTOR_PREFERENCES, r -> {
            List<List<String>> rows = new ArrayList<>();
            for (JsonNode p : r.path("preferences")) {
                rows.add(List.of(p.path("product").asText(), p.path("impl_id").asText(), p.path("set_by").asText(),
                        p.path("set_at").asText()));
            }
            if (rows.isEmpty()) {
                ctx.out().println("(no preferences: the most specific version range decides ties)");
                return;
            }
            Tables.print(ctx, List.of("PRODUCT", "IMPL", "SET BY", "SET AT"), rows);
        });
    }
}
