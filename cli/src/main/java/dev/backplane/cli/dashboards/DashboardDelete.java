package dev.backplane.cli.dashboards;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc dashboard delete} */
@Command(name = "delete", description = "Delete a dashboard [tenant_admin]; its sensors stay.")
final class DashboardDelete extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<dashboard-id>") String id;

    @Override
    protected void execute(Session s) {
        send(s, "DELETE", ApiPaths.expand(ApiPaths.DASHBOARD, id), null, d -> ctx.out().println("deleted dashboard " + id));
    }
}
