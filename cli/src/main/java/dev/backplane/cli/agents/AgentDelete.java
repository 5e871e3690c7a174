package dev.backplane.cli.agents;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.ConfirmOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code svc agent delete} */
@Command(name = "delete", description = "Delete an agent definition [tenant_admin].")
final class AgentDelete extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<name>") String name;
    @Mixin ConfirmOption confirm;

    @Override
    protected void validate() {
        confirm.require("deleting agent definition " + name);
    }

    @Override
    protected void execute(Session s) {
        send(s, "DELETE", ApiPaths.expand(ApiPaths.AGENT, name), null, a -> ctx.out().println("deleted agent definition "
                + name));
    }
}
