package dev.backplane.cli.agents;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.RequestBody;
import dev.backplane.cli.common.TextArgs;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc agent run} */
@Command(name = "run", description = "Run an agent on a prompt [operator]: waits for the outcome, or with --async "
        + "prints the run handle (svc agent run-status <handle>).")
final class RunStart extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<name>") String name;
    @Option(names = "--input", required = true, paramLabel = "<prompt|@file>", description = "the prompt (@path reads a file)")
    String input;
    @Option(names = "--async", description = "start it and return the handle") boolean async;
    @Option(names = "--work-ref", description = "change-ticket reference stamped on the run and its operation calls")
    String workRef;

    @RequestBody
    record Start(String input, Boolean async, String workRef) {
    }

    @Override
    protected void execute(Session s) {
        String prompt = TextArgs.read(input, "--input");
        if (prompt == null || prompt.isBlank()) {
            throw CliException.usage("--input is empty");
        }
        var run = s.client().call("POST", ApiPaths.expand(ApiPaths.AGENT, name) + "/runs",
                new Start(prompt, async ? true : null, workRef), Duration.ofMinutes(async ? 1 : 30)).json();
        print(run, () -> RunStatus.print(ctx, run));
    }
}
