package dev.backplane.cli.dashboards;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc dashboard show} */
@Command(name = "show", description = "One dashboard: its roll-up and each member sensor's state.")
final class DashboardShow extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<dashboard-id>") String id;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.expand(ApiPaths.DASHBOARD, id), d -> {
            DashboardCommand.print(ctx, d);
            if (!d.path("description").isNull()) {
                ctx.out().println("  " + d.path("description").asText());
            }
            if (!d.path("investigator_agent").isNull()) {
                ctx.out().println("  investigator: " + d.path("investigator_agent").asText());
            }
            d.path("members").forEach(m -> ctx.out().println("  " + m.path("state").asText() + "  " + m.path("name").asText()
                    + "  " + m.path("id").asText()));
        });
    }
}
