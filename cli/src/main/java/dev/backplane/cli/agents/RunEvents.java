package dev.backplane.cli.agents;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code svc agent run-events <handle>}: what happened in a run, one JSON object a line. (SPEC's
 * {@code run-events <name> --input} streams a new run over SSE; that stream is not built yet.)
 */
@Command(name = "run-events", description = "What happened in a run, one JSON object a line: turn_started, tool_call, "
        + "tool_result, approval_parked, approval_decided, repair_requested, final_output.")
final class RunEvents extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<handle>")
    String handle;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.expand(ApiPaths.AGENT_RUN, handle) + "/events",
                page -> page.path("events").forEach(e -> ctx.out().println(e.toString())));
    }
}
