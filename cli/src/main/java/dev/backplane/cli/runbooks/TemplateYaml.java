package dev.backplane.cli.runbooks;

import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.CliException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * What draft-template and edit-template both take: the template's slug and {@code --from}, its YAML file
 * or {@code -} for standard input.
 */
final class TemplateYaml {

    @Parameters(index = "0", paramLabel = "<slug>") String slug;

    @Option(names = "--from", required = true, paramLabel = "<yaml>", description = "the template YAML file (- reads stdin)")
    String from;

    String read(CliContext ctx) {
        try {
            if (from.equals("-")) {
                return new String(ctx.in().readAllBytes(), StandardCharsets.UTF_8);
            }
            return Files.readString(Path.of(from));
        } catch (IOException e) {
            throw CliException.usage("--from: cannot read " + from + ": " + e.getMessage());
        }
    }
}
