package dev.backplane.cli.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Option values that may name a file: {@code @path} reads the text from that file. */
public final class TextArgs {

    private TextArgs() {
    }

    public static String read(String value, String option) {
        if (value == null || !value.startsWith("@")) {
            return value;
        }
        Path p = Path.of(value.substring(1));
        try {
            return Files.readString(p).strip();
        } catch (IOException e) {
            throw CliException.usage(option + ": cannot read " + p + ": " + e.getMessage());
        }
    }
}
