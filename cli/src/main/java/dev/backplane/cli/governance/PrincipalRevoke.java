package dev.backplane.cli.governance;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc agent-principal revoke} */
@Command(name = "revoke", description = "Kill switch: refuse everything the agent asks, from its next request.")
final class PrincipalRevoke extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<name>") String name;

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.expand(ApiPaths.AGENT_PRINCIPALS + "/{name}/revoke", name), null,
                p -> ctx.out().println("revoked agent principal " + p.path("name").asText()));
    }
}
