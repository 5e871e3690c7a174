package dev.backplane.cli.kb;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc kb show} */
@Command(name = "show", description = "Show an entry in full.")
final class Show extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<slug>") String slug;

    Show() {
        super("GET " + ApiPaths.KB_ENTRY, KbCommand::printEntry);
    }
}
