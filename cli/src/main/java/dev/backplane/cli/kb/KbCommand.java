package dev.backplane.cli.kb;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.CliContext;
import picocli.CommandLine.Command;

/** {@code svc kb}: the knowledge base (durable team knowledge). Writes need tenant_admin. */
@Command(name = "kb", description = "The knowledge base: durable, general team knowledge.",
        subcommands = {Add.class, Show.class, ListEntries.class, Search.class,
                Delete.class, KbIngestCommand.class})
public final class KbCommand {

    private KbCommand() {
    }

    /** An entry in full ({@code svc kb show}). */
    static void printEntry(CliContext ctx, JsonNode r) {
        ctx.out().println(r.path("slug").asText() + "  (updated " + r.path("updated_at").asText() + ", metadata "
                + r.path("metadata") + ")");
        ctx.out().println();
        ctx.out().println(r.path("body").asText());
    }
}
