package dev.backplane.cli.agents;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc agent run-cancel} */
@Command(name = "run-cancel", description = "Cancel a run that has not finished (it stops at its next turn or tool call).")
final class RunCancel extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<handle>") String handle;

    RunCancel() {
        super("POST " + ApiPaths.AGENT_RUN + "/cancel", RunStatus::print);
    }
}
