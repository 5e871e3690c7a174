package dev.backplane.cli.scheduler;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc scheduler pause} */
@Command(name = "pause", description = "Pause a trigger [tenant_admin].")
final class TriggerPause extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<trigger-id>") String id;

    TriggerPause() {
        super("POST " + ApiPaths.TRIGGER + "/pause", SchedulerCommand::print);
    }
}
