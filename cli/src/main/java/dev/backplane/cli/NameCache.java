package dev.backplane.cli;

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
import java.util.List;
import java.util.Optional;

/**
 * The names shell completion fetched, kept for {@link #FRESH} per backplane, tenant and kind in the CLI's
 * {@code cache} directory (beside the operation catalog the family verbs keep), so that pressing TAB again does not
 * ask the backplane again. Names only: no token, no other field of the answer.
 */
final class NameCache {

    static final Duration FRESH = Duration.ofSeconds(30);

    private final Path file;

    NameCache(Path configDir, String backplane, Optional<String> tenant, NameKind kind) {
        this.file = configDir.resolve("cache").resolve("names-" + kind.word + "-"
                + digest(backplane + "|" + tenant.orElse("")) + ".txt");
    }

    /** The cached names, if they are fresh. */
    Optional<List<String>> cached() {
        try {
            if (!Files.isRegularFile(file)
                    || Files.getLastModifiedTime(file).toInstant().isBefore(Instant.now().minus(FRESH))) {
                return Optional.empty();
            }
            return Optional.of(Files.readString(file, StandardCharsets.UTF_8).lines().toList());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Keeps {@code names} (best effort: a read-only disk only costs a fetch next time). */
    void keep(List<String> names) {
        try {
            Files.createDirectories(file.getParent());
            Path tmp = Files.createTempFile(file.getParent(), ".names", ".tmp");
            Files.writeString(tmp, names.isEmpty() ? "" : String.join("\n", names) + "\n", StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException ignored) {
            // no cache this time
        }
    }

    Path file() {
        return file;
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
