package dev.backplane.cli.sensors;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc sensor pause} */
@Command(name = "pause", description = "Pause a sensor [tenant_admin]: it stops running.")
final class SensorPause extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<sensor-id>") String id;

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.expand(ApiPaths.SENSOR, id) + "/pause", null, x -> SensorCommand.print(ctx, x));
    }
}
