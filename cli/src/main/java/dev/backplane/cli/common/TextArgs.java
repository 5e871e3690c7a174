package dev.backplane.cli.common;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Option values that may name a file: {@code @path} reads the text from that file. */
public final class TextArgs {

    private TextArgs() {
    }

    /** A JSON object given inline or as {@code @file}; null when the option is absent. */
    public static JsonNode jsonObject(String value, String option) {
        if (value == null) {
            return null;
        }
        JsonNode n;
        try {
            n = Http.JSON.readTree(read(value, option));
        } catch (IOException e) {
            throw CliException.usage(option + " is not JSON: " + e.getMessage());
        }
        if (n == null || !n.isObject()) {
            throw CliException.usage(option + " must be a JSON object");
        }
        return n;
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
