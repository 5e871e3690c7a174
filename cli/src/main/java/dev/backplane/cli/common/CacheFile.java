package dev.backplane.cli.common;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;

/**
 * One file of the CLI's {@code cache} directory, per backplane and tenant (its name a digest of both, so no URL
 * becomes a path): read while younger than its freshness, written whole by an atomic rename, best effort both ways
 * (a read-only or full disk only costs a fetch next time). Never holds a token.
 */
public final class CacheFile {

    private final Path file;
    private final Duration fresh;

    /** {@code <configDir>/cache/<prefix>-<digest of backplane and tenant><suffix>}. */
    public CacheFile(Path configDir, String prefix, String backplane, Optional<String> tenant, String suffix,
                     Duration fresh) {
        this.file = configDir.resolve("cache").resolve(prefix + "-" + digest(backplane + "|" + tenant.orElse(""))
                + suffix);
        this.fresh = fresh;
    }

    public Path path() {
        return file;
    }

    /** The file's text while it is fresh. */
    public Optional<String> read() {
        try {
            if (!Files.isRegularFile(file)
                    || Files.getLastModifiedTime(file).toInstant().isBefore(Instant.now().minus(fresh))) {
                return Optional.empty();
            }
            return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Replaces the file's text. */
    public void write(String text) {
        try {
            Files.createDirectories(file.getParent());
            Path tmp = Files.createTempFile(file.getParent(), ".cache", ".tmp");
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException ignored) {
            // no cache this time
        }
    }

    public void delete() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // it will age out
        }
    }

    private static String digest(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8))).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
