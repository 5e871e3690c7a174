package dev.backplane.kernel.events;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The cryptography of {@link WebhookAuth}: HMAC-SHA256 over a prefix and a body, Standard Webhooks' {@code whsec_}
 * keys, and comparisons whose time does not depend on where two values differ. Outbound webhooks (approval
 * notifications) sign with {@link #standardSignature}, the same scheme {@link HmacProofs} verifies inbound.
 */
public final class WebhookMacs {

    private WebhookMacs() {
    }

    /**
     * The Standard Webhooks {@code webhook-signature} of one message: {@code v1,} and the base64 HMAC-SHA256 of
     * {@code <id>.<timestamp>.<body>} under {@code secret} ({@code whsec_<base64>} decoded, anything else its bytes).
     */
    public static String standardSignature(byte[] secret, String id, long timestamp, byte[] body) {
        byte[] prefix = (id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8);
        return "v1," + Base64.getEncoder().encodeToString(mac(standardKey(secret), prefix, body));
    }

    /** Standard Webhooks secrets are {@code whsec_<base64>}; anything else is used as its bytes. */
    static byte[] standardKey(byte[] secret) {
        String s = new String(secret, StandardCharsets.UTF_8);
        if (s.startsWith("whsec_")) {
            try {
                return Base64.getDecoder().decode(s.substring(6));
            } catch (IllegalArgumentException e) {
                return secret;
            }
        }
        return secret;
    }

    /** Looked up once: {@code Mac.getInstance} walks the providers on every call; a clone does not. */
    static final Mac PROTOTYPE;

    static {
        try {
            PROTOTYPE = Mac.getInstance("HmacSHA256");
        } catch (NoSuchAlgorithmException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    static byte[] mac(byte[] key, byte[] prefix, byte[] body) {
        try {
            Mac mac = (Mac) PROTOTYPE.clone();
            mac.init(new SecretKeySpec(key.length == 0 ? new byte[1] : key, "HmacSHA256"));
            mac.update(prefix);
            return mac.doFinal(body);
        } catch (CloneNotSupportedException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    static boolean anyEqual(List<byte[]> keys, byte[] presented) {
        boolean ok = false;
        for (byte[] key : keys) {
            ok |= constantTimeEquals(key, presented);
        }
        return ok;
    }

    /** Equal in time independent of where they differ (and of their lengths: both are hashed first). */
    static boolean constantTimeEquals(byte[] a, byte[] b) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            byte[] ha = d.digest(a);
            byte[] hb = d.digest(b);
            return MessageDigest.isEqual(ha, hb);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }
}
