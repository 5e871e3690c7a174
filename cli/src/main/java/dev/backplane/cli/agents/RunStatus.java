package dev.backplane.cli.agents;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc agent run-status} */
@Command(name = "run-status", description = "One run: status, turns, output or error.")
final class RunStatus extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<handle>") String handle;
    @Option(names = "--events", description = "also what happened in the run, one JSON object a line") boolean events;

    RunStatus() {
        super("GET " + ApiPaths.AGENT_RUN, RunStatus::print);
    }

    @Override
    protected void execute(Session s) {
        super.execute(s);
        if (events) {
            get(s, ApiPaths.expand(ApiPaths.AGENT_RUN, handle) + "/events",
                    page -> page.path("events").forEach(e -> ctx.out().println(e.toString())));
        }
    }

    static void print(CliContext ctx, JsonNode run) {
        ctx.out().println(run.path("handle").asText() + "  " + run.path("agent_name").asText() + "  "
                + run.path("status").asText() + "  turns " + run.path("turns").asInt()
                + (run.path("work_ref").isNull() ? "" : "  work_ref " + run.path("work_ref").asText()));
        if (!run.path("approval_request_id").isNull() && run.path("status").asText().equals("awaiting_approval")) {
            ctx.out().println("  waiting for approval " + run.path("approval_request_id").asText()
                    + " (svc approvals show)");
        }
        if (!run.path("output").isNull()) {
            ctx.out().println("  output: " + run.path("output"));
        }
        if (!run.path("error").isNull()) {
            ctx.out().println("  " + run.path("error_code").asText() + ": " + run.path("error").asText());
        }
    }
}
