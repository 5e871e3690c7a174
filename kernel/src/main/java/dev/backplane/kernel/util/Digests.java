package dev.backplane.kernel.util;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The kernel's one SHA-256: params hashes, preview hashes, catalog and connector revisions, kb body
 * hashes, hashed search and docs queries. Every caller hashes the UTF-8 bytes and compares lower-case
 * hex, so stored hashes stay comparable across capabilities.
 */
public final class Digests {

    private Digests() {
    }

    /** Lower-case hex SHA-256 of the text's UTF-8 bytes. */
    public static String sha256Hex(String text) {
        return sha256Hex(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Lower-case hex SHA-256 of raw bytes (a webhook body as the sender sent it). */
    public static String sha256Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
