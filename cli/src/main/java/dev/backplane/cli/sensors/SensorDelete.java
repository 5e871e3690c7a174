package dev.backplane.cli.sensors;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.ConfirmedDelete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc sensor delete} */
@Command(name = "delete", description = "Delete a sensor with its results [tenant_admin]; its service grant is revoked "
        + "and it leaves every dashboard.")
final class SensorDelete extends ConfirmedDelete {
    @Parameters(index = "0", paramLabel = "<sensor-id>") String id;

    SensorDelete() {
        super("sensor", ApiPaths.SENSOR, "its results go with it");
    }
}
