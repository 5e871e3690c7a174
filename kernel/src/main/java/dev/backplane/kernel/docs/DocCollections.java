package dev.backplane.kernel.docs;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The doc collections a tenant can see: its own, and the global ones (tenant_id NULL). Global
 * collections are managed by a platform_admin, tenant-owned ones by the owner's tenant_admin (the
 * route checked that role). A collection is searched only while enabled, and only by a tenant that
 * holds its capability {@code svc-docs:<key>} (see {@link DocsCapabilities}).
 */
public final class DocCollections {

    static final int LIST_MAX = 500;
    static final String ALL = "all";

    /** Fields of a create or update; empty means "not given" (update keeps the current value). */
    public record Fields(Optional<String> backendType, Optional<Map<String, Object>> backendRef,
                         Optional<String> description, Optional<List<String>> product, Optional<String> vendor,
                         Optional<String> whenToUse, Optional<Boolean> enabled) {
    }

    /** A page of collections; {@code next_cursor} is the last key when more may follow. */
    public record Page(List<DocCollection.View> collections, Optional<String> nextCursor) {
    }

    private final DocCollectionStore store;
    private final Map<String, DocsBackend> backends;
    private final DocsCapabilities capabilities;

    DocCollections(Jdbc jdbc, Map<String, DocsBackend> backends, DocsCapabilities capabilities) {
        this.store = new DocCollectionStore(jdbc);
        this.backends = Map.copyOf(backends);
        this.capabilities = capabilities;
    }

    public DocCollection create(Caller c, String key, boolean global, Fields f) {
        CollectionFields.key(key);
        if (global) {
            c.requirePlatformAdmin();
        }
        Optional<UUID> owner = global ? Optional.empty() : Optional.of(c.tenantId());
        String type = f.backendType().orElseThrow(() -> DocsErrors.INVALID_BACKEND_TYPE.error("backend_type is required; known: " + backends.keySet(), Map.of("field", "backend_type")));
        Map<String, Object> ref = backendRef(type, owner, key, f.backendRef().orElse(Map.of()));
        UUID id = UUID.randomUUID();
        store.inTransaction(conn -> {
            // one key per namespace, and a tenant key never shadows a global one: serialize creates of a key
            DocCollectionStore.lockKey(conn, key);
            if (DocCollectionStore.keyTaken(conn, key, owner)) {
                throw DocsErrors.COLLECTION_EXISTS.error("a doc collection '" + key
                        + "' already exists" + (global ? "" : " in this tenant or globally"), Map.of("collection", key));
            }
            DocCollectionStore.insert(conn, id, owner, key, new DocCollectionStore.Values(type, ref,
                    f.description().orElse(""), CollectionFields.products(f.product().orElse(List.of())),
                    CollectionFields.blankToNull(f.vendor()), CollectionFields.blankToNull(f.whenToUse()),
                    f.enabled().orElse(true)), c.sub());
            return null;
        });
        return byId(id);
    }

    public DocCollection update(Caller c, String key, Fields f) {
        DocCollection e = managed(c, key);
        String type = f.backendType().orElse(e.backendType());
        Map<String, Object> ref = f.backendRef().isPresent() || !type.equals(e.backendType())
                ? backendRef(type, e.ownerTenantId(), key, f.backendRef().orElse(e.backendRef())) : e.backendRef();
        store.update(e.id(), new DocCollectionStore.Values(type, ref, f.description().orElse(e.description()),
                f.product().map(CollectionFields::products).orElse(e.product()),
                f.vendor().isPresent() ? CollectionFields.blankToNull(f.vendor()) : e.vendor().orElse(null),
                f.whenToUse().isPresent() ? CollectionFields.blankToNull(f.whenToUse()) : e.whenToUse().orElse(null),
                f.enabled().orElse(e.enabled())), c.sub());
        return byId(e.id());
    }

    public DocCollection setEnabled(Caller c, String key, boolean enabled) {
        DocCollection e = managed(c, key);
        store.setEnabled(e.id(), enabled, c.sub());
        return byId(e.id());
    }

    /** Deletes a disabled, tenant-owned collection (SPEC "Other status sets"); anything else is 409. */
    public void delete(Caller c, String key) {
        DocCollection e = managed(c, key);
        if (e.global()) {
            throw DocsErrors.COLLECTION_NOT_TENANT_OWNED.error("collection '" + key + "' is "
                    + "global; only tenant-owned collections can be deleted (disable it instead)",
                    Map.of("collection", key));
        }
        if (!store.deleteDisabled(e.id())) {
            throw DocsErrors.COLLECTION_ENABLED.error("collection '" + key + "' is enabled; "
                    + "disable it first (svc docs collections disable " + key + ")", Map.of("collection", key));
        }
    }

    /** Collections the caller can see: its tenant's own, the globals its tenant holds (all globals for a platform_admin). */
    public Page list(Caller c, Optional<String> cursor, int limit, Optional<String> vendor) {
        if (limit < 1 || limit > LIST_MAX) {
            throw CommonErrors.INVALID_LIMIT.error("limit must be 1.." + LIST_MAX, Map.of("field", "limit"));
        }
        List<DocCollection> rows = store.visiblePage(c.tenantId(), c.platformAdmin(), cursor.orElse(""), vendor,
                limit + 1);
        List<DocCollection.View> page = new ArrayList<>();
        for (DocCollection d : rows.subList(0, Math.min(limit, rows.size()))) {
            page.add(d.view(d.enabled() && capabilities.holds(c.tenantId(), d)));
        }
        return new Page(page, rows.size() > limit ? Optional.of(page.getLast().key()) : Optional.empty());
    }

    /** Every enabled collection the tenant holds the capability for, by key. */
    public List<DocCollection> searchable(UUID tenant) {
        return store.searchable(tenant);
    }

    /** The collection a query names, if the tenant may search it: enabled and capability held. */
    public DocCollection forQuery(UUID tenant, String key) {
        DocCollection d = visible(tenant, key);
        if (!capabilities.holds(tenant, d)) {
            throw capabilityRequired(key);
        }
        if (!d.enabled()) {
            throw DocsErrors.COLLECTION_DISABLED.error("collection '" + key + "' is disabled "
                    + "and hidden from search", Map.of("collection", key));
        }
        return d;
    }

    static DomainException capabilityRequired(String key) {
        return DocsErrors.CAPABILITY_REQUIRED.error("this tenant lacks the capability "
                + DocCollection.capability(key) + " (a platform_admin grants it: svc docs collections grant " + key
                + " --tenant <uuid>)").withExtras("capability", DocCollection.capability(key))
                .withExtras("collection", key);
    }

    /** A collection the caller may manage: its tenant's own, or a global one for a platform_admin. */
    DocCollection managed(Caller c, String key) {
        DocCollection d = visible(c.tenantId(), key);
        if (d.global() && !c.platformAdmin()) {
            throw CommonErrors.INSUFFICIENT_ROLE.error("collection '" + key + "' is global; only a "
                    + "platform_admin manages it").withExtras("required_role", "platform_admin");
        }
        return d;
    }

    DocCollection visible(UUID tenant, String key) {
        return store.visible(tenant, key).orElseThrow(() -> notFound(key));
    }

    static DomainException notFound(String key) {
        return DocsErrors.COLLECTION_NOT_FOUND.error("no doc collection '" + key
                + "' in this tenant or globally (svc docs collections list)", Map.of("collection", key));
    }

    DocsBackend backend(DocCollection d) {
        DocsBackend b = backends.get(d.backendType());
        if (b == null) {
            throw DocsErrors.BACKEND_TYPE_NOT_SERVED.error("collection '" + d.key()
                    + "' has backend_type '" + d.backendType() + "', which this backplane does not speak",
                    Map.of("collection", d.key()));
        }
        return b;
    }

    private Map<String, Object> backendRef(String type, Optional<UUID> owner, String key, Map<String, Object> ref) {
        DocsBackend b = backends.get(type);
        if (b == null) {
            throw DocsErrors.UNKNOWN_BACKEND_TYPE.error("backend_type '" + type + "' is not known; known: "
                    + backends.keySet(), Map.of("field", "backend_type", "valid_backend_types",
                    List.copyOf(new TreeSet<>(backends.keySet()))));
        }
        return ref.isEmpty() ? Map.of() : b.validate(owner, key, ref); // '{}' clears the backend
    }

    private DocCollection byId(UUID id) {
        return store.byId(id).orElseThrow();
    }
}
