package dev.backplane.kernel.targets;

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
}
