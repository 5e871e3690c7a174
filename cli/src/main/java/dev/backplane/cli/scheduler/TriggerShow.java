package dev.backplane.cli.scheduler;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc scheduler show} */
@Command(name = "show", description = "One trigger.")
final class TriggerShow extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<trigger-id>") String id;

    TriggerShow() {
        super("GET " + ApiPaths.TRIGGER, SchedulerCommand::print);
    }
}
