package dev.backplane.kernel.targets;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.Fingerprint;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The fingerprint a probe stores on the target, mapped from what the connector answered: the vendor, product and
 * version it saw, or the error it failed with (an authentication failure still proves the target answers).
 */
final class ProbeFingerprint {

    private ProbeFingerprint() {
    }

    /** What a successful probe saw. */
    static Map<String, Object> of(Fingerprint f, String connectorId) {
        Map<String, Object> fingerprint = new LinkedHashMap<>();
        f.vendor().ifPresent(v -> fingerprint.put("vendor", v));
        f.product().ifPresent(v -> fingerprint.put("product", v));
        f.version().ifPresent(v -> fingerprint.put("version", v));
        fingerprint.put("reachable", f.reachable());
        fingerprint.put("probed_at", f.probedAt().truncatedTo(ChronoUnit.MILLIS).toString());
        fingerprint.put("probe_method", f.probeMethod());
        fingerprint.put("connector_id", connectorId);
        return fingerprint;
    }

    /** What a failed probe learnt: reachable only when the target answered (and refused the credential). */
    static Map<String, Object> failed(ConnectorException e, String connectorId, Instant at) {
        Map<String, Object> fingerprint = new LinkedHashMap<>();
        fingerprint.put("reachable", e.code() == ErrorCode.CONNECTOR_AUTH_FAILED);
        fingerprint.put("probed_at", at.truncatedTo(ChronoUnit.MILLIS).toString());
        fingerprint.put("probe_method", "probe via " + connectorId);
        fingerprint.put("error_code", e.code().wireName());
        fingerprint.put("reason", e.getMessage());
        if (e.extras().containsKey("exception_message")) {
            fingerprint.put("exception_message", e.extras().get("exception_message"));
        }
        fingerprint.put("connector_id", connectorId);
        return fingerprint;
    }

    /** The audit outcome of a probe with this fingerprint: its error code, if it failed. */
    static Optional<String> errorCode(Map<String, Object> fingerprint) {
        return Optional.ofNullable(fingerprint.get("error_code")).map(Object::toString);
    }
}
