package dev.backplane.cli.conventions;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc conventions show} */
@Command(name = "show", description = "Show a convention in full.")
final class ConventionShow extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<slug>") String slug;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.expand(ApiPaths.CONVENTION, slug), c -> ConventionsCommand.print(ctx, c));
    }
}
