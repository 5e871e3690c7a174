package dev.backplane.plugin.api;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;

/**
 * How a spec engine identifies the product behind a target of an ingested connector: one GET of a
 * version document, the product version read from it by JSON pointer. A connector that knows its
 * product's version route ({@code /api/v2.0/systeminfo} for Harbor, {@code /api/version} for Argo CD)
 * probes it instead of guessing from headers, so the resolver can match the version to a range.
 *
 * @param path the route to GET, relative to the target's root (not to the base path), starting with '/'
 * @param versionPointer JSON pointer of the version in the answer ({@code /harbor_version})
 * @param vendor the vendor to report when the answer is recognised, if known
 * @param expect the product check: JSON pointer to a regular expression its text must contain a match of;
 *     an answer that fails it (or lacks the version) is a reachable system that is not this product
 * @since 1.6
 */
public record ProductProbe(String path, String versionPointer, Optional<String> vendor, Map<String, String> expect) {

    public ProductProbe {
        requireNonNull(path, "path is null");
        requireNonNull(versionPointer, "versionPointer is null");
        requireNonNull(vendor, "vendor is null");
        expect = Map.copyOf(requireNonNull(expect, "expect is null"));
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("probe path must start with '/': " + path);
        }
        if (!versionPointer.startsWith("/")) {
            throw new IllegalArgumentException("version pointer must be a JSON pointer ('/...'): " + versionPointer);
        }
        for (Map.Entry<String, String> e : expect.entrySet()) {
            if (!e.getKey().startsWith("/")) {
                throw new IllegalArgumentException("probe expectation key must be a JSON pointer: " + e.getKey());
            }
            java.util.regex.Pattern.compile(e.getValue());
        }
    }
}
