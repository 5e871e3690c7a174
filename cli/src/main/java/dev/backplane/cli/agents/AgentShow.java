package dev.backplane.cli.agents;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc agent show} */
@Command(name = "show", description = "One agent definition.")
final class AgentShow extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<name>") String name;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.expand(ApiPaths.AGENT, name), a -> AgentFields.print(ctx, a));
    }
}
