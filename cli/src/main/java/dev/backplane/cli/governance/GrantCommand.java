package dev.backplane.cli.governance;

import static dev.backplane.cli.governance.AgentCommands.grant;

import picocli.CommandLine.Command;

/** {@code svc agent grant} */
@Command(name = "grant", description = "Grants for agents and user-agents.",
        subcommands = {GrantCreate.class, GrantElevate.class, GrantList.class, GrantRevoke.class, GrantShow.class})
public final class GrantCommand {
}
