package dev.backplane.cli.runbooks;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import dev.backplane.cli.common.RequestBody;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc runbook abort} */
@Command(name = "abort", description = "Abort an unfinished run [assignee or tenant_admin].")
final class Abort extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<run-id>") String runId;
    @Option(names = "--reason", required = true, description = "why (required, recorded)") String reason;

    @RequestBody
    record Body(String reason) {
    }

    Abort() {
        super("POST " + ApiPaths.RUNBOOK_RUN + "/abort", RunbookCommand::printRun);
    }

    @Override
    protected Object body() {
        return new Body(reason);
    }
}
