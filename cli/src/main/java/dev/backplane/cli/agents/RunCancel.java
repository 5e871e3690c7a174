package dev.backplane.cli.agents;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc agent run-cancel} */
@Command(name = "run-cancel", description = "Cancel a run that has not finished (it stops at its next turn or tool call).")
final class RunCancel extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<handle>") String handle;

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.expand(ApiPaths.AGENT_RUN, handle) + "/cancel", null, run -> RunStatus.print(ctx, run));
    }
}
