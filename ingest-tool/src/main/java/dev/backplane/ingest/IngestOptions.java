package dev.backplane.ingest;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.function.Consumer;

/**
 * What to build from the specs.
 *
 * @param implId implementation id of the connector ({@code keycloak}); also the first op_id segment
 * @param versionLabel version label ({@code 23.x}); the connector id is {@code <implId>-<versionLabel>}
 * @param product product token served ({@code keycloak})
 * @param compatibleVersions declared compatible spec {@code info.version}s (globs such as {@code 2.x}
 *     or PEP 440 specifier sets; each element may itself be comma-separated); empty = the spec's major
 *     must equal the label's
 * @param maxBytes size cap per spec
 * @param allowRemoteRefs whether {@code $ref}s to other documents may be fetched
 * @param progress receives progress while ingesting (may be a no-op)
 * @param credentialReads {@code METHOD /path} reads the catalog index marks as credential reads
 * @param notCredentialReads {@code METHOD /path} reads the catalog index has audited as returning no secret
 *     values, although {@link CredentialReads}' heuristic would mark them
 */
public record IngestOptions(String implId, String versionLabel, String product, List<String> compatibleVersions,
                            long maxBytes, boolean allowRemoteRefs, Consumer<Progress> progress,
                            List<String> credentialReads, List<String> notCredentialReads) {

    /** Default size cap per spec: 32 MiB. */
    public static final long DEFAULT_MAX_BYTES = 32L * 1024 * 1024;

    public IngestOptions {
        requireNonNull(implId, "implId is null");
        requireNonNull(versionLabel, "versionLabel is null");
        requireNonNull(product, "product is null");
        compatibleVersions = List.copyOf(requireNonNull(compatibleVersions, "compatibleVersions is null"));
        requireNonNull(progress, "progress is null");
        credentialReads = List.copyOf(requireNonNull(credentialReads, "credentialReads is null"));
        notCredentialReads = List.copyOf(requireNonNull(notCredentialReads, "notCredentialReads is null"));
    }

    /** Options with no index-listed or index-cleared credential reads (the heuristic alone decides). */
    public IngestOptions(String implId, String versionLabel, String product, List<String> compatibleVersions,
                         long maxBytes, boolean allowRemoteRefs, Consumer<Progress> progress) {
        this(implId, versionLabel, product, compatibleVersions, maxBytes, allowRemoteRefs, progress, List.of(),
                List.of());
    }

    /**
     * Progress of one ingest.
     *
     * @param stage {@code reading}, {@code parsing}, {@code operations}, {@code done}
     * @param done items done in this stage
     * @param total items in this stage (0 when unknown)
     */
    public record Progress(String stage, int done, int total) {
    }
}
