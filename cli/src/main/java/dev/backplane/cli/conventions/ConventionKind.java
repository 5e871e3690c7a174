package dev.backplane.cli.conventions;

import dev.backplane.cli.common.CliException;
import picocli.CommandLine.Option;

/** {@code --kind} of list and edit: optional, one of the convention kinds. */
final class ConventionKind {

    @Option(names = "--kind", paramLabel = "<kind>", description = "operational, workflow or reference") String value;

    void check() {
        check(value);
    }

    /** Refuses a kind that is not one of {@link ConventionsCommand#KINDS}; null (not given) passes. */
    static void check(String kind) {
        if (kind != null && !kind.matches("operational|workflow|reference")) {
            throw CliException.usage("--kind must be " + ConventionsCommand.KINDS + ", got '" + kind + "'");
        }
    }
}
