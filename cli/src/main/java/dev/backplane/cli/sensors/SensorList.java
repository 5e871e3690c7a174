package dev.backplane.cli.sensors;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.Paging;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code svc sensor list} */
@Command(name = "list", description = "The tenant's sensors.")
final class SensorList extends BackplaneCommand {
    @Option(names = "--cadence-kind", description = "interval or cron") String cadenceKind;
    @Option(names = "--status", description = "active or paused") String status;
    @Mixin Paging paging;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.SENSORS + QueryString.of().add("cadence_kind", cadenceKind).add("status", status)
                .add(paging), page -> Tables.each(ctx, page.path("sensors"), "no sensors", SensorCommand::print));
    }
}
