package dev.backplane.cli.events;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc event-source describe} */
@Command(name = "describe", description = "One event source, by slug or name.")
final class Describe extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<slug-or-name>") String slug;

    Describe() {
        super("GET " + ApiPaths.EVENT_SOURCE, EventSourceCommand::show);
    }
}
