package dev.backplane.cli.sensors;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc sensor list} */
@Command(name = "list", description = "The tenant's sensors.")
final class SensorList extends BackplaneCommand {
    @Option(names = "--cadence-kind", description = "interval or cron") String cadenceKind;
    @Option(names = "--status", description = "active or paused") String status;
    @Option(names = "--limit", paramLabel = "1..500", description = "default 100") Integer limit;
    @Option(names = "--offset") Integer offset;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.SENSORS + QueryString.of().add("cadence_kind", cadenceKind).add("status", status)
                .add("limit", limit).add("offset", offset), page -> {
                    if (page.path("sensors").isEmpty()) {
                        ctx.out().println("no sensors");
                    }
                    page.path("sensors").forEach(x -> SensorCommand.print(ctx, x));
                });
    }
}
