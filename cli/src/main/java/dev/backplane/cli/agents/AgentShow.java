package dev.backplane.cli.agents;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc agent show} */
@Command(name = "show", description = "One agent definition.")
final class AgentShow extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<name>") String name;

    AgentShow() {
        super("GET " + ApiPaths.AGENT, AgentFields::print);
    }
}
