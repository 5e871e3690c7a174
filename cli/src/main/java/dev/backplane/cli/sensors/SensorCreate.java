package dev.backplane.cli.sensors;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.TextArgs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc sensor create} */
@Command(name = "create", description = "Create a sensor [tenant_admin]: a read operation (--connector-id, --op-id, "
        + "--target, --params) run every --interval-seconds (5..86400) or on --cron (six fields with seconds; "
        + "--time-zone, default UTC), its result judged by --assertion (see docs/guide/sensors-and-dashboards.md: rules of path tests mapping to "
        + "ok|degraded|critical|unknown|skip). The sensor runs as its own service principal, granted exactly this "
        + "operation on this target.")
final class SensorCreate extends BackplaneCommand {
    @Option(names = "--name", required = true) String name;
    @Option(names = "--connector-id", required = true, paramLabel = "<impl-version>") String connectorId;
    @Option(names = "--op-id", required = true) String opId;
    @Option(names = "--target", required = true, paramLabel = "<name>") String target;
    @Option(names = "--params", paramLabel = "<json|@file>", description = "the operation's params (default {})")
    String params;
    @Option(names = "--assertion", required = true, paramLabel = "<json|@file>") String assertion;
    @Option(names = "--interval-seconds", paramLabel = "<5..86400>") Integer interval;
    @Option(names = "--cron", paramLabel = "<expression>", description = "second minute hour day-of-month month day-of-week")
    String cron;
    @Option(names = "--time-zone", paramLabel = "<zone>") String timeZone;
    @Option(names = "--paused", description = "create it paused") boolean paused;

    @Override
    protected void validate() {
        if ((interval == null) == (cron == null)) {
            throw CliException.usage("give exactly one of --interval-seconds and --cron");
        }
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.SENSORS, new SensorWrite.Body(name, connectorId, opId, target,
                TextArgs.jsonObject(params, "--params"), TextArgs.jsonObject(assertion, "--assertion"), interval, cron,
                timeZone, paused ? "paused" : null), x -> {
                    ctx.out().println("created sensor:");
                    SensorCommand.print(ctx, x);
                });
    }
}
