package dev.backplane.plugin.api;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/**
 * What a probe observed.
 *
 * @param vendor the vendor, when known
 * @param product the most specific product detectable (may be more specific than the registered token)
 * @param version the product version, when known
 * @param reachable whether the target answered
 * @param probedAt when the probe ran (UTC)
 * @param probeMethod how it was identified, such as {@code GET /version}
 */
public record Fingerprint(Optional<String> vendor, Optional<String> product, Optional<String> version,
                          boolean reachable, Instant probedAt, String probeMethod) {
    public Fingerprint {
        requireNonNull(vendor, "vendor is null");
        requireNonNull(product, "product is null");
        requireNonNull(version, "version is null");
        requireNonNull(probedAt, "probedAt is null");
        requireNonNull(probeMethod, "probeMethod is null");
    }
}
