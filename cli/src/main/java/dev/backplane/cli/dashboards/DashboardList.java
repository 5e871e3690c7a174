package dev.backplane.cli.dashboards;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc dashboard list} */
@Command(name = "list", description = "The tenant's dashboards with their roll-up.")
final class DashboardList extends BackplaneCommand {
    @Option(names = "--limit", paramLabel = "1..500", description = "default 100") Integer limit;
    @Option(names = "--offset") Integer offset;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.DASHBOARDS + QueryString.of().add("limit", limit).add("offset", offset), page -> {
            if (page.path("dashboards").isEmpty()) {
                ctx.out().println("no dashboards");
            }
            page.path("dashboards").forEach(d -> DashboardCommand.print(ctx, d));
        });
    }
}
