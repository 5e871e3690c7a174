package dev.backplane.kernel.targets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.Fingerprint;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The fingerprint a probe stores: what the connector saw, in a fixed order, with the connector last; a failure's
 * code and reason, reachable only when the target answered and refused the credential.
 */
class ProbeFingerprintTest {

    private static final Instant AT = Instant.parse("2026-11-29T09:00:00.123456Z");

    @Test
    void aSuccessfulProbeKeepsWhatTheConnectorSaw() {
        Map<String, Object> f = ProbeFingerprint.of(new Fingerprint(Optional.of("Proxmox"), Optional.empty(),
                Optional.of("8.2"), true, AT, "GET /version"), "proxmox-8.x");
        assertThat(f.keySet()).containsExactly("vendor", "version", "reachable", "probed_at", "probe_method",
                "connector_id");
        assertThat(f).containsEntry("probed_at", "2026-11-29T09:00:00.123Z").containsEntry("reachable", true);
        assertThat(ProbeFingerprint.errorCode(f)).isEmpty();
    }

    @Test
    void anAuthenticationFailureProvesTheTargetAnswers() {
        Map<String, Object> refused = ProbeFingerprint.failed(new ConnectorException(ErrorCode.CONNECTOR_AUTH_FAILED,
                "401"), "k8s-1.x", AT);
        assertThat(refused).containsEntry("reachable", true).containsEntry("probe_method", "probe via k8s-1.x")
                .containsEntry("reason", "401").doesNotContainKey("exception_message");
        assertThat(ProbeFingerprint.errorCode(refused)).contains(ErrorCode.CONNECTOR_AUTH_FAILED.wireName());

        Map<String, Object> down = ProbeFingerprint.failed(new ConnectorException(ErrorCode.CONNECTOR_UNREACHABLE,
                "no route", Map.of("exception_message", "connect timed out"), null), "k8s-1.x", AT);
        assertThat(down).containsEntry("reachable", false).containsEntry("exception_message", "connect timed out")
                .containsEntry("probed_at", "2026-11-29T09:00:00.123Z");
        assertThat(down.keySet()).endsWith("connector_id");
    }
}
