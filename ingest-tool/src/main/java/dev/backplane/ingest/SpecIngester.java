package dev.backplane.ingest;

import java.util.List;

/** Vendor OpenAPI 2.0 / 3.0 / 3.1 specs → one connector catalog. Stateless and thread-safe. */
public final class SpecIngester {

    private SpecIngester() {
    }

    /**
     * Reads, checks and converts the specs (several specs merge into one catalog; op ids stay unique).
     *
     * @throws SpecIngestException when a spec is unreadable, too large, invalid or of an incompatible version
     */
    public static IngestResult ingest(List<SpecSource> sources, IngestOptions options) {
        throw new UnsupportedOperationException("being written");
    }
}
