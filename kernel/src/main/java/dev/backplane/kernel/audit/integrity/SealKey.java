package dev.backplane.kernel.audit.integrity;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The key that seals chain heads (HMAC-SHA256), from {@code audit.seal.key}: held by the kernel, never by the
 * database, so someone who can rewrite every row and recompute every link still cannot make a seal that verifies.
 * Its id (the first 8 bytes of its SHA-256, in hex) is stored with each seal so verify knows which key made it.
 */
public final class SealKey {

    private final SecretKeySpec key;
    private final String id;

    private SealKey(byte[] bytes) {
        this.key = new SecretKeySpec(bytes, "HmacSHA256");
        this.id = HexFormat.of().formatHex(AuditChain.sha256().digest(bytes), 0, 8);
    }

    /** The key a setting's value names; empty when the value is blank. Refuses a key shorter than 32 bytes. */
    public static Optional<SealKey> of(String base64) {
        if (base64 == null || base64.isBlank()) {
            return Optional.empty();
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(base64.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("audit.seal.key is not base64");
        }
        if (bytes.length < 32) {
            throw new IllegalArgumentException("audit.seal.key must be at least 32 bytes (it has " + bytes.length + ")");
        }
        return Optional.of(new SealKey(bytes));
    }

    public String id() {
        return id;
    }

    /** The seal of a tenant's head at {@code seq} with link {@code hash}, made at {@code sealedAt}. */
    public byte[] mac(UUID tenant, long seq, byte[] hash, Instant sealedAt) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(("svc-audit-seal/1|" + tenant + "|" + seq + "|" + HexFormat.of().formatHex(hash) + "|"
                    + sealedAt).getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether {@code mac} is this key's seal of the head (compared in constant time). */
    public boolean verifies(UUID tenant, long seq, byte[] hash, Instant sealedAt, byte[] mac) {
        return MessageDigest.isEqual(mac(tenant, seq, hash, sealedAt), mac);
    }

    @Override
    public String toString() {
        return "SealKey[" + id + "]";
    }
}
