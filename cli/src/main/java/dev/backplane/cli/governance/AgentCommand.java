package dev.backplane.cli.governance;

import static dev.backplane.cli.governance.AgentCommands.grant;

import picocli.CommandLine.Command;

/** svc agent (grant verbs; agent definitions come with the agents capability) */
@Command(name = "agent", description = "Agents: grants that bound what they may do.", subcommands = {GrantCommand.class})
public final class AgentCommand {
}
