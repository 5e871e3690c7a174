package dev.backplane.cli.agents;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc agent create} */
@Command(name = "create", description = "Create an agent definition [tenant_admin].")
final class AgentCreate extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<name>", description = "1-63 of a-z, 0-9 and '-'") String name;
    @Option(names = "--disabled", description = "create it disabled (runs refused until enabled)") boolean disabled;
    @Mixin AgentFields fields;

    @Override
    protected void validate() {
        if (fields.identityRef == null) {
            throw CliException.usage("--identity-ref is required: the agent principal runs act as");
        }
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.AGENTS, fields.body(name, disabled ? false : null), a -> {
            ctx.out().println("created agent definition:");
            AgentFields.print(ctx, a);
        });
    }
}
