package dev.backplane.cli.sensors;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.TextArgs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc sensor update} */
@Command(name = "update", description = "Change a sensor's name, params, assertion or cadence [tenant_admin]; what it "
        + "runs (connector, operation, target) is fixed: delete and re-create to change it.")
final class SensorUpdate extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<sensor-id>") String id;
    @Option(names = "--name") String name;
    @Option(names = "--params", paramLabel = "<json|@file>") String params;
    @Option(names = "--assertion", paramLabel = "<json|@file>") String assertion;
    @Option(names = "--interval-seconds", paramLabel = "<5..86400>") Integer interval;
    @Option(names = "--cron", paramLabel = "<expression>") String cron;
    @Option(names = "--time-zone", paramLabel = "<zone>") String timeZone;

    @Override
    protected void execute(Session s) {
        send(s, "PATCH", ApiPaths.expand(ApiPaths.SENSOR, id), new SensorWrite.Body(name, null, null, null,
                TextArgs.jsonObject(params, "--params"), TextArgs.jsonObject(assertion, "--assertion"), interval, cron,
                timeZone, null), x -> SensorCommand.print(ctx, x));
    }
}
