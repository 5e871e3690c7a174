package dev.backplane.cli.governance;

import static dev.backplane.cli.governance.AgentCommands.grant;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc agent grant show} */
@Command(name = "show", description = "One grant.")
final class GrantShow extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<grant-id>") String id;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.expand(ApiPaths.AGENT_GRANTS + "/{id}", id), g -> grant(ctx, g));
    }
}
