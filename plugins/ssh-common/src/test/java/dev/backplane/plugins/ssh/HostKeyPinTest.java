package dev.backplane.plugins.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.spec.ECGenParameterSpec;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.junit.jupiter.api.Test;

class HostKeyPinTest {

    private static PublicKey key() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return g.generateKeyPair().getPublic();
    }

    @Test
    void aKeyLineAKnownHostsLineAndAFingerprintPinTheSameKey() throws Exception {
        PublicKey key = key();
        String line = PublicKeyEntry.toString(key);
        HostKeyPin byLine = HostKeyPin.parse(line + " comment");
        HostKeyPin byKnownHosts = HostKeyPin.parse("[127.0.0.1]:2222 " + line);
        HostKeyPin byFingerprint = HostKeyPin.parse(HostKeyPin.fingerprintOf(key));
        assertThat(byLine).isEqualTo(byKnownHosts).isEqualTo(byFingerprint);
        assertThat(byLine.matches(key)).isTrue();
        assertThat(byLine.matches(key())).isFalse();
    }

    @Test
    void markerLinesAndKeysPastTheSecondWordAreRefused() throws Exception {
        String line = PublicKeyEntry.toString(key());
        for (String bad : java.util.List.of("@revoked * " + line, "@cert-authority *.example " + line,
                "host1 host2 " + line, "a b c " + line)) {
            assertThatThrownBy(() -> HostKeyPin.parse(bad)).as(bad).isInstanceOfSatisfying(ConnectorException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.CONNECTOR_HOST_KEY_MISMATCH));
        }
    }

    @Test
    void textThatIsNeitherFailsClosed() {
        for (String bad : java.util.List.of("trust-me", "SHA256:short", "ssh-ed25519 not-base64!")) {
            assertThatThrownBy(() -> HostKeyPin.parse(bad)).as(bad).isInstanceOfSatisfying(ConnectorException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.CONNECTOR_HOST_KEY_MISMATCH));
        }
    }
}
