package dev.backplane.cli.scheduler;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc scheduler pause} */
@Command(name = "pause", description = "Pause a trigger [tenant_admin].")
final class TriggerPause extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<trigger-id>") String id;

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.expand(ApiPaths.TRIGGER, id) + "/pause", null, t -> SchedulerCommand.print(ctx, t));
    }
}
