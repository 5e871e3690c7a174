package dev.backplane.cli.kb;

import picocli.CommandLine.Command;

/** {@code svc kb}: the knowledge base (durable team knowledge). Writes need tenant_admin. */
@Command(name = "kb", description = "The knowledge base: durable, general team knowledge.",
        subcommands = {Add.class, Show.class, ListEntries.class, Search.class,
                Delete.class, KbIngestCommand.class})
public final class KbCommand {

    private KbCommand() {
    }
}
