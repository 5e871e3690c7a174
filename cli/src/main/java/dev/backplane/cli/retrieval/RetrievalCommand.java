package dev.backplane.cli.retrieval;

import dev.backplane.cli.common.CliException;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code svc retrieval}: retrieval-quality tooling — eval against grep, the retire checklist, usage. */
@Command(name = "retrieval", description = "Retrieval quality: eval against a grep baseline, retire checklist, usage.",
        subcommands = {Eval.class, RetireChecklist.class, Usage.class})
public final class RetrievalCommand {

    static final List<String> SURFACES = List.of("kb", "memory", "operations", "conventions", "all");

    private RetrievalCommand() {
    }

    static void checkSurface(String surface) {
        if (surface != null && !SURFACES.contains(surface)) {
            throw CliException.usage("--surface must be one of " + SURFACES + ", got '" + surface + "'");
        }
    }
}
