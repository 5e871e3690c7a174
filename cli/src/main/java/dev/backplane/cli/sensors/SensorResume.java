package dev.backplane.cli.sensors;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc sensor resume} */
@Command(name = "resume", description = "Resume a paused sensor [tenant_admin]: it runs at its next cadence from now.")
final class SensorResume extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<sensor-id>") String id;

    SensorResume() {
        super("POST " + ApiPaths.SENSOR + "/resume", SensorCommand::print);
    }
}
