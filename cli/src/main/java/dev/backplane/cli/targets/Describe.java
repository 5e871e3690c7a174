package dev.backplane.cli.targets;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc targets describe} */
@Command(name = "describe", description = "Show a target by name or alias.")
final class Describe extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<name-or-alias>") String name;

    Describe() {
        super("GET " + ApiPaths.TARGET, TargetsCommand::printTarget);
    }
}
