package dev.backplane.cli.runbooks;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc runbook show} */
@Command(name = "show", description = "A run: its state, what happened so far, and its current step.")
final class Show extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<run-id>") String runId;

    Show() {
        super("GET " + ApiPaths.RUNBOOK_RUN, RunbookCommand::printRunWithLog);
    }
}
