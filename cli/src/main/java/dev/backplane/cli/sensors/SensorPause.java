package dev.backplane.cli.sensors;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc sensor pause} */
@Command(name = "pause", description = "Pause a sensor [tenant_admin]: it stops running.")
final class SensorPause extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<sensor-id>") String id;

    SensorPause() {
        super("POST " + ApiPaths.SENSOR + "/pause", SensorCommand::print);
    }
}
