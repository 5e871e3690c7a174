package dev.backplane.cli.governance;

import static dev.backplane.cli.governance.AgentCommands.principals;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.RequestBody;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc agent-principal register} */
@Command(name = "register", description = "Register an agent principal; its name is the agent's OIDC client id [tenant_admin].")
final class PrincipalRegister extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<name>") String name;
    @Option(names = "--owner-sub", description = "who may pull the kill switch besides tenant admins (default: you)")
    String ownerSub;

    /** The body of POST /api/v1/agent-principals. */
    @RequestBody
    record Registration(String name, String ownerSub) {
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.AGENT_PRINCIPALS, new Registration(name, ownerSub),
                p -> ctx.out().println("registered agent principal " + p.path("name").asText() + " (owner "
                + p.path("owner_sub").asText() + ")"));
    }
}
