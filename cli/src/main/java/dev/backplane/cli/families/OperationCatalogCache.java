package dev.backplane.cli.families;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CacheFile;
import dev.backplane.cli.common.Http;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The backplane's operation catalog ({@code GET /api/v1/catalog/operations}), cached per backplane
 * and tenant next to the CLI config. A cached copy is used for {@link #FRESH}; after that, or when the
 * family asked for is not in it, or when a call answers {@code unknown_operation}, it is fetched again
 * (the catalog carries a revision, so a refetch that changed nothing is visible as such).
 */
final class OperationCatalogCache {

    static final Duration FRESH = Duration.ofMinutes(10);

    private final CacheFile file;

    OperationCatalogCache(Path configDir, String backplane, Optional<String> tenant) {
        this.file = new CacheFile(configDir, "operations", backplane, tenant, ".json", FRESH);
    }

    /** The cached catalog if it is fresh enough. */
    Optional<JsonNode> cached() {
        return file.read().flatMap(text -> {
            try {
                return Optional.of(Http.JSON.readTree(text));
            } catch (IOException e) {
                return Optional.empty();
            }
        });
    }

    /** Fetches the catalog from the backplane and keeps a copy (best effort: a read-only disk only costs speed). */
    JsonNode fetch(Session session) {
        JsonNode catalog = session.client().get(ApiPaths.CATALOG_OPERATIONS).json();
        file.write(catalog.toString());
        return catalog;
    }

    void forget() {
        file.delete();
    }
}
