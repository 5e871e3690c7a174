package dev.backplane.cli.governance;

import static dev.backplane.cli.governance.AgentCommands.principals;

import picocli.CommandLine.Command;

/** {@code svc agent-principal} */
@Command(name = "agent-principal", description = "Agent principals and the kill switch.",
        subcommands = {PrincipalList.class, PrincipalRegister.class, PrincipalRevoke.class})
public final class AgentPrincipalCommand {
}
