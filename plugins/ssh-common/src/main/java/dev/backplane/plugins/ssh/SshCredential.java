package dev.backplane.plugins.ssh;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * How an SSH plugin logs in, from the target's secret: {@code username}, and either
 * {@code private_key} (OpenSSH or PEM, optionally encrypted with {@code passphrase}) or
 * {@code password}. A key wins when both are present. Values are never shown.
 *
 * @param username the login user
 * @param privateKey the private key text, if any
 * @param passphrase the key's passphrase, if any
 * @param password the password, if any
 */
public record SshCredential(String username, Optional<String> privateKey, Optional<String> passphrase,
                            Optional<String> password) {

    public static final String USERNAME = "username";
    public static final String PRIVATE_KEY = "private_key";
    public static final String PASSPHRASE = "passphrase";
    public static final String PASSWORD = "password";
    /** The secret fields an SSH connector reads, for its descriptor. */
    public static final List<String> FIELDS = List.of(USERNAME, PRIVATE_KEY, PASSPHRASE, PASSWORD);

    /**
     * Reads the fields.
     *
     * @throws ConnectorException {@code connector_error} when {@code username} is missing or neither a key
     *     nor a password is given
     */
    public static SshCredential of(Credential c) {
        String user = c.field(USERNAME);
        Optional<String> key = optional(c, PRIVATE_KEY);
        Optional<String> password = optional(c, PASSWORD);
        if (key.isEmpty() && password.isEmpty()) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR,
                    "KvCredentialsReadError (missing required field '" + PRIVATE_KEY + "' or '" + PASSWORD + "')");
        }
        return new SshCredential(user, key, optional(c, PASSPHRASE), password);
    }

    private static Optional<String> optional(Credential c, String name) {
        return c.has(name) ? Optional.of(c.field(name)).filter(v -> !v.isEmpty()) : Optional.empty();
    }

    /** A digest of every value, so pooled sessions are shared only by callers holding the same secret. */
    String digest() {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (String part : List.of(username, privateKey.orElse(""), passphrase.orElse(""), password.orElse(""))) {
                md.update(part.getBytes(StandardCharsets.UTF_8));
                md.update((byte) 0);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return "SshCredential[username, " + (privateKey.isPresent() ? "private_key" : "password") + "](values redacted)";
    }
}
