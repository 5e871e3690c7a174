package dev.backplane.cli.connectors;

import picocli.CommandLine.Command;

/** {@code svc operation ...}: find operations of a connector. */
@Command(name = "operation", description = "Find a connector's operations.",
        subcommands = {Groups.class, Search.class, Preview.class,
                Call.class, RunStatus.class, RunCancel.class, ResultQueryCmd.class})
public final class OperationCommand {
}
