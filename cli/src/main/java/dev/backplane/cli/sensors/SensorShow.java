package dev.backplane.cli.sensors;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc sensor show} */
@Command(name = "show", description = "One sensor with its params and assertion.")
final class SensorShow extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<sensor-id>") String id;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.expand(ApiPaths.SENSOR, id), x -> {
            SensorCommand.print(ctx, x);
            ctx.out().println("  params: " + x.path("params"));
            ctx.out().println("  assertion: " + x.path("assertion"));
        });
    }
}
