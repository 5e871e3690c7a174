package dev.backplane.kernel.targets;

import dev.backplane.plugin.api.TargetSpec;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A registered target as the API shows it (SPEC "Target"). {@code port} is the effective port: the
 * registered one, or the product's default ({@code port_is_default}). The fingerprint is written
 * only by the probe.
 */
public record Target(UUID id, String name, List<String> aliases, String product, String host, int port,
                     boolean portIsDefault, Optional<String> fqdn, String secretRef, String authModel,
                     boolean vpnRequired, Optional<String> notes, Optional<String> preferredImplId, boolean verifyTls,
                     Optional<String> tlsCaPin, Optional<String> tlsServerName, Map<String, Object> extras,
                     Optional<String> version, Optional<Map<String, Object>> fingerprint, Instant createdAt,
                     Instant updatedAt) {

    /** What a plugin is told of this target: the probed version when there is one, else the asserted one. */
    public TargetSpec spec() {
        return new TargetSpec(name, product, host, port, fingerprint.map(f -> f.get("version")).map(Object::toString)
                .or(() -> version), verifyTls, tlsCaPin, tlsServerName, extras);
    }

    /** What the resolver weighs: the probed version when there is one, else the asserted one, and where it came from. */
    public dev.backplane.kernel.catalog.Implementations.Subject resolverSubject() {
        Optional<String> probed = fingerprint.map(f -> f.get("version")).filter(v -> v != null && !v.toString().isBlank())
                .map(Object::toString);
        Optional<String> v = probed.or(() -> version);
        return new dev.backplane.kernel.catalog.Implementations.Subject(name, product, v,
                probed.isPresent() ? "fingerprint" : version.isPresent() ? "asserted" : "unknown", preferredImplId);
    }
}
