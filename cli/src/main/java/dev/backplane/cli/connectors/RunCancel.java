package dev.backplane.cli.connectors;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc operation run-cancel <handle>} */
@Command(name = "run-cancel", description = "Cancel an asynchronous call that has not finished (a finished one "
        + "answers run_finished with its status).")
final class RunCancel extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<handle>") String handle;

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.expand(ApiPaths.OPERATION_RUN, handle) + "/cancel", null, run -> RunStatus.print(ctx, run));
    }
}
