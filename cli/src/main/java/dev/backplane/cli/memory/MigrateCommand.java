package dev.backplane.cli.memory;

import picocli.CommandLine.Command;

/** {@code svc migrate ...}: bring laptop-local state into the backplane. */
@Command(name = "migrate", description = "Bring laptop-local state into the backplane.",
        subcommands = {MigrateMemory.class})
public final class MigrateCommand {

    private MigrateCommand() {
    }
}
