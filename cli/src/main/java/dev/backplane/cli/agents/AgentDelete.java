package dev.backplane.cli.agents;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.ConfirmedDelete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc agent delete} */
@Command(name = "delete", description = "Delete an agent definition [tenant_admin].")
final class AgentDelete extends ConfirmedDelete {
    @Parameters(index = "0", paramLabel = "<name>") String name;

    AgentDelete() {
        super("agent definition", ApiPaths.AGENT, "runs it started stay");
    }
}
