package dev.backplane.cli.runbooks;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.RequestBody;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc runbook abort} */
@Command(name = "abort", description = "Abort an unfinished run [assignee or tenant_admin].")
final class Abort extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<run-id>") String runId;
    @Option(names = "--reason", required = true, description = "why (required, recorded)") String reason;

    @RequestBody
    record Body(String reason) {
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.expand(ApiPaths.RUNBOOK_RUN, runId) + "/abort", new Body(reason),
                r -> RunbookCommand.printRun(ctx, r));
    }
}
