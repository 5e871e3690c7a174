package dev.backplane.cli.agents;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.TextArgs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc agent run-events <name> --input}: runs an agent and streams what happens (SSE), one JSON object a line. */
@Command(name = "run-events", description = "Run an agent and stream what happens as it happens, one JSON object a "
        + "line: turn_started, tool_call, tool_result, approval_parked, approval_decided, repair_requested, "
        + "final_output, and run_finished with the run. (A past run's events: svc agent run-status <handle> --events.)")
final class RunEvents extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<name>") String name;
    @Option(names = "--input", required = true, paramLabel = "<prompt|@file>", description = "the prompt (@path reads a file)")
    String input;
    @Option(names = "--work-ref", description = "change-ticket reference stamped on the run and its operation calls")
    String workRef;

    @Override
    protected void execute(Session s) {
        String prompt = TextArgs.read(input, "--input");
        if (prompt == null || prompt.isBlank()) {
            throw CliException.usage("--input is empty");
        }
        s.client().stream(ApiPaths.expand(ApiPaths.AGENT, name) + "/run-events", new RunStart.Start(prompt, null, workRef),
                line -> {
                    if (line.startsWith("data: ")) {
                        ctx.out().println(line.substring(6));
                        ctx.out().flush();
                    }
                });
    }
}
