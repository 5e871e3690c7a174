package dev.backplane.cli.sensors;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.ConfirmOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code svc sensor delete} */
@Command(name = "delete", description = "Delete a sensor with its results [tenant_admin]; its service grant is revoked "
        + "and it leaves every dashboard.")
final class SensorDelete extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<sensor-id>") String id;
    @Mixin ConfirmOption confirm;

    @Override
    protected void validate() {
        confirm.require("deleting sensor " + id);
    }

    @Override
    protected void execute(Session s) {
        send(s, "DELETE", ApiPaths.expand(ApiPaths.SENSOR, id), null, x -> ctx.out().println("deleted sensor " + id));
    }
}
