package dev.backplane.cli.governance;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc agent-principal revoke} */
@Command(name = "revoke", description = "Kill switch: refuse everything the agent asks, from its next request.")
final class PrincipalRevoke extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<name>") String name;

    PrincipalRevoke() {
        super("POST " + ApiPaths.AGENT_PRINCIPALS + "/{name}/revoke",
                (ctx, p) -> ctx.out().println("revoked agent principal " + p.path("name").asText()));
    }
}
