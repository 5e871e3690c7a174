package dev.backplane.cli.governance;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc agent grant show} */
@Command(name = "show", description = "One grant.")
final class GrantShow extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<grant-id>") String id;

    GrantShow() {
        super("GET " + ApiPaths.AGENT_GRANTS + "/{id}", AgentCommands::grant);
    }
}
