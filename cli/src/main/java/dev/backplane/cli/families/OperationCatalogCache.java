package dev.backplane.cli.families;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.Http;
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
 * The backplane's operation catalog ({@code GET /api/v1/catalog/operations}), cached per backplane
 * and tenant next to the CLI config. A cached copy is used for {@link #FRESH}; after that, or when the
 * family asked for is not in it, or when a call answers {@code unknown_operation}, it is fetched again
 * (the catalog carries a revision, so a refetch that changed nothing is visible as such).
 */
final class OperationCatalogCache {

    static final Duration FRESH = Duration.ofMinutes(10);

    private final Path file;

    OperationCatalogCache(Path configDir, String backplane, Optional<String> tenant) {
        this.file = configDir.resolve("cache").resolve("operations-" + digest(backplane + "|" + tenant.orElse(""))
                + ".json");
    }

    /** The cached catalog if it is fresh enough. */
    Optional<JsonNode> cached() {
        try {
            if (!Files.isRegularFile(file)
                    || Files.getLastModifiedTime(file).toInstant().isBefore(Instant.now().minus(FRESH))) {
                return Optional.empty();
            }
            return Optional.of(Http.JSON.readTree(Files.readString(file)));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Fetches the catalog from the backplane and keeps a copy (best effort: a read-only disk only costs speed). */
    JsonNode fetch(Session session) {
        JsonNode catalog = session.client().get(ApiPaths.CATALOG_OPERATIONS).json();
        try {
            Files.createDirectories(file.getParent());
            Path tmp = Files.createTempFile(file.getParent(), ".operations", ".tmp");
            Files.writeString(tmp, catalog.toString(), StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException ignored) {
            // no cache this time
        }
        return catalog;
    }

    void forget() {
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
