package dev.backplane.cli.scheduler;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc scheduler resume} */
@Command(name = "resume", description = "Resume a paused trigger [tenant_admin].")
final class TriggerResume extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<trigger-id>") String id;

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.expand(ApiPaths.TRIGGER, id) + "/resume", null, t -> SchedulerCommand.print(ctx, t));
    }
}
