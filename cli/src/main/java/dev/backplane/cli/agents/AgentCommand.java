package dev.backplane.cli.agents;

import dev.backplane.cli.governance.GrantCommand;
import picocli.CommandLine.Command;

/** {@code svc agent}: agent definitions, and the grants that bound agents. */
@Command(name = "agent", description = "Agents: definitions [tenant_admin for writes], runs, and the grants that bound them.",
        subcommands = {AgentList.class, AgentShow.class, AgentCreate.class, AgentEdit.class, AgentDelete.class,
                RunStart.class, RunStatus.class, RunList.class, RunCancel.class, RunEvents.class, GrantCommand.class})
public final class AgentCommand {
}
