package dev.backplane.cli.runbooks;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc runbook show} */
@Command(name = "show", description = "A run: its state, what happened so far, and its current step.")
final class Show extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<run-id>") String runId;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.expand(ApiPaths.RUNBOOK_RUN, runId), r -> {
            r.path("log").forEach(e -> ctx.out().println("  [" + e.path("at").asText() + "] step " + e.path("step").asInt()
                    + " " + e.path("action").asText() + (e.hasNonNull("outcome") ? ": " + e.path("outcome").asText() : "")
                    + " by " + e.path("actor").asText()));
            RunbookCommand.printRun(ctx, r);
        });
    }
}
