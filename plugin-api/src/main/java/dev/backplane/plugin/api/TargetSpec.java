package dev.backplane.plugin.api;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;

/**
 * The coordinates of a target, as a connector sees them.
 *
 * @param name the target's name in its tenant
 * @param product the registered product token
 * @param host host or IP to dial
 * @param port port to dial
 * @param version the operator-asserted or probed product version, if known
 * @param verifyTls false disables certificate verification
 * @param tlsCaPin PEM CA bundle to trust instead of the system trust store
 * @param tlsServerName name for SNI and certificate verification, when it differs from host
 * @param extras free-form per-target settings
 */
public record TargetSpec(String name, String product, String host, int port, Optional<String> version,
                         boolean verifyTls, Optional<String> tlsCaPin, Optional<String> tlsServerName,
                         Map<String, Object> extras) {
    public TargetSpec {
        requireNonNull(name, "name is null");
        requireNonNull(product, "product is null");
        requireNonNull(host, "host is null");
        requireNonNull(version, "version is null");
        requireNonNull(tlsCaPin, "tlsCaPin is null");
        requireNonNull(tlsServerName, "tlsServerName is null");
        extras = Map.copyOf(requireNonNull(extras, "extras is null"));
    }
}
