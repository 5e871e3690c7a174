package dev.backplane.cli.dashboards;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc dashboard show} */
@Command(name = "show", description = "One dashboard: its roll-up and each member sensor's state.")
final class DashboardShow extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<dashboard-id>") String id;

    DashboardShow() {
        super("GET " + ApiPaths.DASHBOARD, DashboardCommand::printDetail);
    }
}
