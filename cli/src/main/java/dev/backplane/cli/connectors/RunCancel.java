package dev.backplane.cli.connectors;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc operation run-cancel <handle>} */
@Command(name = "run-cancel", description = "Cancel an asynchronous call that has not finished (a finished one "
        + "answers run_finished with its status).")
final class RunCancel extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<handle>") String handle;

    RunCancel() {
        super("POST " + ApiPaths.OPERATION_RUN + "/cancel", RunStatus::print);
    }
}
