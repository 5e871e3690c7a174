package dev.backplane.ingest;

import static java.util.Objects.requireNonNull;

/**
 * Where a spec comes from: a file path, an {@code http(s)://} or {@code file:} URL, or text already read.
 *
 * @param location what the operator named (shown in messages)
 * @param content the text when already read, else null (read from {@code location})
 */
public record SpecSource(String location, String content) {
    public SpecSource {
        requireNonNull(location, "location is null");
    }

    public static SpecSource of(String location) {
        return new SpecSource(location, null);
    }

    public static SpecSource text(String name, String content) {
        return new SpecSource(name, requireNonNull(content, "content is null"));
    }
}
