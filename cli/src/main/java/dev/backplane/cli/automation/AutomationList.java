package dev.backplane.cli.automation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc automation list} */
@Command(name = "list", description = "Every automation: kind, id, status, what it runs, its last run.")
final class AutomationList extends BackplaneCommand {
    @Option(names = "--limit", paramLabel = "1..500", description = "default 100") Integer limit;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.AUTOMATION + QueryString.of().add("limit", limit), page -> {
            Tables.print(ctx, List.of("KIND", "ID", "STATUS", "RUNS", "LAST RUN", "LAST RUN STATUS", "WHAT"),
                    Tables.rows(page.path("automations"), a -> List.of(a.path("kind").asText(), a.path("id").asText(),
                            a.path("status").asText(), a.path("runs").asText(), text(a.path("last_run_at"), "never"),
                            lastRun(a), a.path("description").asText())));
            if (page.path("truncated").asBoolean()) {
                ctx.out().println("(more automations than shown: raise --limit)");
            }
        });
    }

    private static String lastRun(JsonNode a) {
        if (!a.hasNonNull("last_run_handle")) {
            return "-";
        }
        return text(a.path("last_run_status"), "(run gone)") + " " + a.path("last_run_handle").asText();
    }

    private static String text(JsonNode node, String none) {
        return node.isNull() || node.isMissingNode() ? none : node.asText();
    }
}
