package dev.backplane.cli.automation;

import picocli.CommandLine.Command;

/** {@code svc automation ...}: what runs by itself in the tenant. */
@Command(name = "automation", description = "What runs by itself in the tenant (event triggers; sensors and "
        + "scheduled jobs as they land).", subcommands = {AutomationList.class})
public final class AutomationCommand {
}
