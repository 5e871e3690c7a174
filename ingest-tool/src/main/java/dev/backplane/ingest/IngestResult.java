package dev.backplane.ingest;

import static java.util.Objects.requireNonNull;

import dev.backplane.plugin.api.Catalog;
import java.util.List;
import java.util.Map;

/**
 * What an ingest built.
 *
 * @param specs one entry per spec read
 * @param basePath path prefix of every operation ("" for none); see
 *     {@link dev.backplane.plugin.api.IngestedConnector#basePath()}
 * @param catalog groups and operations, params schemas carrying {@code x-svc-in} / {@code x-svc-name}
 * @param warnings things skipped or approximated, one readable line each (cookie params, unsupported
 *     media types, bodies described loosely because their schema was too large, ...)
 * @param classifications op id → why the operation got its class and safety, in one line ("POST whose name says
 *     it only reads: 'plan'", "credential read: path segment 'unlockkey' names a secret")
 */
public record IngestResult(List<SpecInfo> specs, String basePath, Catalog catalog, List<String> warnings,
                           Map<String, String> classifications) {
    public IngestResult {
        classifications = Map.copyOf(requireNonNull(classifications, "classifications is null"));
        specs = List.copyOf(requireNonNull(specs, "specs is null"));
        requireNonNull(basePath, "basePath is null");
        requireNonNull(catalog, "catalog is null");
        warnings = List.copyOf(requireNonNull(warnings, "warnings is null"));
    }

    /**
     * One spec read.
     *
     * @param location where it came from
     * @param format {@code swagger-2.0}, {@code openapi-3.0.x} or {@code openapi-3.1.x} (the spec's exact version)
     * @param title {@code info.title}
     * @param infoVersion {@code info.version} as written
     * @param sha256 hex SHA-256 of the bytes read
     * @param bytes size
     * @param operations operations taken from it
     */
    public record SpecInfo(String location, String format, String title, String infoVersion, String sha256, long bytes,
                           int operations) {
    }
}
