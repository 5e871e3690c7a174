package dev.backplane.kernel.console;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Authenticated encryption (AES-256-GCM) with the console's key. The key is made once per backplane (random, 256
 * bits) and kept in PostgreSQL ({@link SealKeyStore}), so every replica seals and opens the same values without any
 * setting. Each value is sealed for a {@code purpose} (the GCM associated data): a value sealed for one purpose never
 * opens for another, so a sign-in cookie cannot stand in for a session's refresh token or the reverse.
 * {@code toString} shows no key.
 */
final class Seal {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final byte VERSION = 1;
    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final SecretKey key;

    /** A seal with {@code key} (32 bytes); the console's own comes from {@link #load}. */
    Seal(byte[] key) {
        this.key = new SecretKeySpec(key, "AES");
    }

    /** The backplane's console key, made by whichever replica asks first (the others read the same row). */
    static Seal load(SealKeyStore keys) {
        byte[] fresh = new byte[32];
        RANDOM.nextBytes(fresh);
        return new Seal(keys.keyOr(fresh));
    }

    /** URL-safe text (a valid cookie value) that only this key opens, and only for {@code purpose}. */
    String seal(String purpose, byte[] plain) {
        byte[] iv = new byte[IV_BYTES];
        RANDOM.nextBytes(iv);
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
            c.updateAAD(purpose.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = c.doFinal(plain);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(ByteBuffer.allocate(1 + IV_BYTES + sealed.length)
                    .put(VERSION).put(iv).put(sealed).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is unavailable", e);
        }
    }

    /** The plain bytes, or empty when {@code sealed} was not made by this key for {@code purpose} (or was altered). */
    Optional<byte[]> open(String purpose, String sealed) {
        byte[] raw;
        try {
            raw = Base64.getUrlDecoder().decode(sealed);
        } catch (IllegalArgumentException notBase64) {
            return Optional.empty();
        }
        if (raw.length < 1 + IV_BYTES + TAG_BITS / 8 || raw[0] != VERSION) {
            return Optional.empty();
        }
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, raw, 1, IV_BYTES));
            c.updateAAD(purpose.getBytes(StandardCharsets.UTF_8));
            return Optional.of(c.doFinal(raw, 1 + IV_BYTES, raw.length - 1 - IV_BYTES));
        } catch (AEADBadTagException forged) {
            return Optional.empty();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is unavailable", e);
        }
    }

    @Override
    public String toString() {
        return "Seal[AES-256-GCM, key=****]";
    }
}
