package dev.backplane.cli.events;

import static dev.backplane.cli.events.EventSourceCommand.show;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc event-source describe} */
@Command(name = "describe", description = "One event source, by slug or name.")
final class Describe extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<slug-or-name>") String slug;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.expand(ApiPaths.EVENT_SOURCE, slug), e -> show(ctx, e));
    }
}
