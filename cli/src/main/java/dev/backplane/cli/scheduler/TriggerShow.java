package dev.backplane.cli.scheduler;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc scheduler show} */
@Command(name = "show", description = "One trigger.")
final class TriggerShow extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<trigger-id>") String id;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.expand(ApiPaths.TRIGGER, id), t -> SchedulerCommand.print(ctx, t));
    }
}
