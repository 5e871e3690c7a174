package dev.backplane.cli.sensors;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc sensor show} */
@Command(name = "show", description = "One sensor with its params and assertion.")
final class SensorShow extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<sensor-id>") String id;

    SensorShow() {
        super("GET " + ApiPaths.SENSOR, SensorCommand::printDetail);
    }
}
