package dev.backplane.cli.scheduler;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc scheduler resume} */
@Command(name = "resume", description = "Resume a paused trigger [tenant_admin].")
final class TriggerResume extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<trigger-id>") String id;

    TriggerResume() {
        super("POST " + ApiPaths.TRIGGER + "/resume", SchedulerCommand::print);
    }
}
