package dev.backplane.cli.conventions;

import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.TextArgs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** {@code --body text|@file|@-}: the text itself, a file's content, or standard input. */
final class BodyArg {

    private BodyArg() {
    }

    static String read(CliContext ctx, String value) {
        if (value.equals("@-")) {
            try {
                return new String(ctx.in().readAllBytes(), StandardCharsets.UTF_8).strip();
            } catch (IOException e) {
                throw CliException.usage("--body @-: cannot read standard input: " + e.getMessage());
            }
        }
        return TextArgs.read(value, "--body");
    }
}
