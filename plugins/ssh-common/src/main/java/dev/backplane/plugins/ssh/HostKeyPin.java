package dev.backplane.plugins.ssh;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.util.Base64;
import java.util.regex.Pattern;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.digest.BuiltinDigests;

/**
 * The one host key a target's SSH server may present, as its SHA-256 fingerprint (the form
 * {@code ssh-keygen -lf} prints). The target gives it in {@code extras.ssh_host_key} either as that
 * fingerprint ({@code SHA256:...}) or as a public key line ({@code ecdsa-sha2-nistp256 AAAA...}),
 * optionally with a known_hosts host-pattern in front (marker lines such as {@code @revoked} or
 * {@code @cert-authority} are refused). There is no trust on first use: a target
 * without a pin fails closed, and the error names the key the server presented so an operator can
 * check it out of band and pin it.
 *
 * @param fingerprint {@code SHA256:} and the unpadded base64 of the key blob's SHA-256
 */
public record HostKeyPin(String fingerprint) {

    /** The target extra holding the pin. */
    public static final String EXTRA = "ssh_host_key";
    private static final Pattern FINGERPRINT = Pattern.compile("SHA256:[A-Za-z0-9+/]{43}");
    private static final Pattern KEY_TYPE = Pattern.compile("(ssh-|ecdsa-|sk-)[a-z0-9@.-]+");

    public HostKeyPin {
        if (fingerprint == null || !FINGERPRINT.matcher(fingerprint).matches()) {
            throw new IllegalArgumentException("not a SHA256 fingerprint: " + fingerprint);
        }
    }

    /**
     * Parses a pin.
     *
     * @throws ConnectorException {@code connector_host_key_mismatch} when the text is neither form
     */
    public static HostKeyPin parse(String text) {
        String t = text.strip();
        if (FINGERPRINT.matcher(t).matches()) {
            return new HostKeyPin(t);
        }
        String[] words = t.split("\\s+");
        // a marker line (@revoked, @cert-authority) names a key that must NOT be trusted as this host's key;
        // the key type is word 0 (a key line) or word 1 (after a known_hosts host pattern), nowhere else
        for (int i = 0; i < 2 && i + 1 < words.length && !t.startsWith("@"); i++) {
            if (KEY_TYPE.matcher(words[i]).matches()) {
                try {
                    return new HostKeyPin(fingerprintOf(Base64.getDecoder().decode(words[i + 1])));
                } catch (IllegalArgumentException e) {
                    break;
                }
            }
        }
        throw new ConnectorException(ErrorCode.CONNECTOR_HOST_KEY_MISMATCH, "extras." + EXTRA + " is neither a "
                + "SHA256:... fingerprint nor an OpenSSH public key line; the host key cannot be checked");
    }

    /** The fingerprint of a key the server presented. */
    public static String fingerprintOf(PublicKey key) {
        return KeyUtils.getFingerPrint(BuiltinDigests.sha256, key);
    }

    /** True when {@code key} is the pinned key. */
    public boolean matches(PublicKey key) {
        return MessageDigest.isEqual(fingerprint.getBytes(java.nio.charset.StandardCharsets.US_ASCII),
                fingerprintOf(key).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }

    private static String fingerprintOf(byte[] blob) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(blob);
            return "SHA256:" + Base64.getEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
