package dev.backplane.cli.conventions;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc conventions show} */
@Command(name = "show", description = "Show a convention in full.")
final class ConventionShow extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<slug>") String slug;

    ConventionShow() {
        super("GET " + ApiPaths.CONVENTION, ConventionsCommand::print);
    }
}
