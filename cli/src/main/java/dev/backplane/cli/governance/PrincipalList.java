package dev.backplane.cli.governance;

import static dev.backplane.cli.governance.AgentCommands.principals;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc agent-principal list} */
@Command(name = "list", description = "Agent principals.")
final class PrincipalList extends BackplaneCommand {
    @Option(names = "--include-revoked") boolean includeRevoked;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.AGENT_PRINCIPALS + (includeRevoked ? "?include_revoked=true" : ""), list -> principals(ctx,
                list));
    }
}
