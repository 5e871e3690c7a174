package dev.backplane.kernel.docs;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A doc collection: a named view onto an external retrieval service (SPEC "Doc collection"). The
 * backplane keeps only this description and how to reach the backend, never the documents.
 *
 * @param id internal id
 * @param ownerTenantId the owning tenant; empty for a global collection
 * @param key the collection key (slug); the capability is {@code svc-docs:<key>}
 * @param backendType how the backend is spoken to, for example {@code corpus-http}
 * @param backendRef where the backend is (type-specific JSON object; empty when cleared)
 */
public record DocCollection(UUID id, Optional<UUID> ownerTenantId, String key, String backendType,
                            Map<String, Object> backendRef, String description, List<String> product,
                            Optional<String> vendor, Optional<String> whenToUse, boolean enabled,
                            Instant createdAt, Instant updatedAt) {

    public DocCollection {
        requireNonNull(id, "id is null");
        requireNonNull(ownerTenantId, "ownerTenantId is null");
        requireNonNull(key, "key is null");
        requireNonNull(backendType, "backendType is null");
        backendRef = Map.copyOf(requireNonNull(backendRef, "backendRef is null"));
        requireNonNull(description, "description is null");
        product = List.copyOf(requireNonNull(product, "product is null"));
        requireNonNull(vendor, "vendor is null");
        requireNonNull(whenToUse, "whenToUse is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(updatedAt, "updatedAt is null");
    }

    public boolean global() {
        return ownerTenantId.isEmpty();
    }

    public String capability() {
        return capability(key);
    }

    public static String capability(String key) {
        return "svc-docs:" + key;
    }

    /** Whether {@code tenant} owns this collection (and so holds its capability implicitly). */
    public boolean ownedBy(UUID tenant) {
        return ownerTenantId.map(tenant::equals).orElse(false);
    }

    /** The wire form; {@code searchable} says whether the caller's tenant may search it right now. */
    public View view(boolean searchable) {
        return new View(key, global() ? "global" : "tenant", ownerTenantId, backendType, backendRef, description,
                product, vendor, whenToUse, enabled ? "enabled" : "disabled", capability(), searchable, createdAt,
                updatedAt);
    }

    /** A collection as REST, the CLI and MCP show it. */
    public record View(String key, String scope, Optional<UUID> ownerTenantId, String backendType,
                       Map<String, Object> backendRef, String description, List<String> product,
                       Optional<String> vendor, Optional<String> whenToUse, String state, String capability,
                       boolean searchable, Instant createdAt, Instant updatedAt) {
    }
}
