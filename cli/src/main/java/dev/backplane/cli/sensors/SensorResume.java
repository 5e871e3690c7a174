package dev.backplane.cli.sensors;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc sensor resume} */
@Command(name = "resume", description = "Resume a paused sensor [tenant_admin]: it runs at its next cadence from now.")
final class SensorResume extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<sensor-id>") String id;

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.expand(ApiPaths.SENSOR, id) + "/resume", null, x -> SensorCommand.print(ctx, x));
    }
}
