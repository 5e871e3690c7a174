package dev.backplane.cli.admin;

import picocli.CommandLine.Command;

/** {@code svc admin}: deployer-side commands. */
@Command(name = "admin", description = "Deployer-side administration.", subcommands = {AdminCommand.Idp.class})
public final class AdminCommand {

    /** {@code svc admin idp}: the identity provider side. */
    @Command(name = "idp", description = "Identity provider set-up.", subcommands = {BootstrapClientsCommand.class})
    static final class Idp {
    }
}
