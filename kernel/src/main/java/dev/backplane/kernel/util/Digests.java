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
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
