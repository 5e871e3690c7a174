package dev.backplane.cli.dashboards;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.Paging;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code svc dashboard list} */
@Command(name = "list", description = "The tenant's dashboards with their roll-up.")
final class DashboardList extends BackplaneCommand {
    @Mixin Paging paging;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.DASHBOARDS + QueryString.of().add(paging),
                page -> Tables.each(ctx, page.path("dashboards"), "no dashboards", DashboardCommand::print));
    }
}
