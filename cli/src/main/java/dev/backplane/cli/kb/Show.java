package dev.backplane.cli.kb;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc kb show} */
@Command(name = "show", description = "Show an entry in full.")
final class Show extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<slug>") String slug;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.expand(ApiPaths.KB_ENTRY, slug), r -> {
            ctx.out().println(r.path("slug").asText() + "  (updated " + r.path("updated_at").asText() + ", metadata "
                    + r.path("metadata") + ")");
            ctx.out().println();
            ctx.out().println(r.path("body").asText());
        });
    }
}
