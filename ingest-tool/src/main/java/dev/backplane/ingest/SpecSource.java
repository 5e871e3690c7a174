package dev.backplane.ingest;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * Where a spec comes from: a file path, a directory or an archive (zip, tar, tar.gz) of a multi-file spec, an {@code
 * http(s)://} or {@code file:} URL, or text already read — one document, or the files of a multi-file spec.
 *
 * @param location what the operator named (shown in messages)
 * @param content the text when already read as one document, else null
 * @param files the files of a multi-file spec already read (relative path → text), else null
 * @param root which of {@code files} is the root document; null to find it (the one with an {@code openapi} or
 *             {@code swagger} field)
 */
public record SpecSource(String location, String content, Map<String, String> files, String root) {
    public SpecSource {
        requireNonNull(location, "location is null");
        files = files == null ? null : Map.copyOf(files);
        if (content != null && files != null) {
            throw new IllegalArgumentException("a spec is one document or several files, not both");
        }
    }

    public static SpecSource of(String location) {
        return new SpecSource(location, null, null, null);
    }

    public static SpecSource text(String name, String content) {
        return new SpecSource(name, requireNonNull(content, "content is null"), null, null);
    }

    /** A multi-file spec's files, read by the caller (relative path → text). */
    public static SpecSource files(String name, Map<String, String> files, String root) {
        return new SpecSource(name, null, requireNonNull(files, "files is null"), root);
    }
}
