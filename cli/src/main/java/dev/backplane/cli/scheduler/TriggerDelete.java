package dev.backplane.cli.scheduler;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.ConfirmedDelete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc scheduler delete} */
@Command(name = "delete", description = "Delete a trigger [tenant_admin]; runs it started stay.")
final class TriggerDelete extends ConfirmedDelete {
    @Parameters(index = "0", paramLabel = "<trigger-id>") String id;

    TriggerDelete() {
        super("trigger", ApiPaths.TRIGGER, "runs it started stay");
    }
}
