package dev.backplane.cli.targets;

import static dev.backplane.cli.targets.TargetsCommand.printTarget;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc targets describe} */
@Command(name = "describe", description = "Show a target by name or alias.")
final class Describe extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<name-or-alias>") String name;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.expand(ApiPaths.TARGET, name), t -> printTarget(ctx, t));
    }
}
