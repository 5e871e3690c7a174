package dev.backplane.cli.events;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Parameters;

/** pause and resume: one request, the new status in the answer. */
abstract class StatusChange extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<slug-or-name>") String slug;

    /** pause or resume: the verb's own name. */
    String verb() {
        return spec.name();
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.expand(ApiPaths.EVENT_SOURCE + "/" + verb(), slug), null,
                e -> ctx.out().println(verb() + "d event source " + e.path("slug").asText() + " (status "
                + e.path("status").asText() + ")"));
    }
}
