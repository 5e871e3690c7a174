package dev.backplane.kernel.docs;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.JsonMapping;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The doc collections a tenant can see: its own, and the global ones (tenant_id NULL). Global
 * collections are managed by a platform_admin, tenant-owned ones by the owner's tenant_admin (the
 * route checked that role). A collection is searched only while enabled, and only by a tenant that
 * holds its capability {@code svc-docs:<key>} (see {@link DocsCapabilities}).
 */
public final class DocCollections {

    static final int LIST_MAX = 500;
    static final int MAX_PRODUCTS = 32;
    static final String ALL = "all";
    private static final Pattern KEY = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");

    /** Fields of a create or update; empty means "not given" (update keeps the current value). */
    public record Fields(Optional<String> backendType, Optional<Map<String, Object>> backendRef,
                         Optional<String> description, Optional<List<String>> product, Optional<String> vendor,
                         Optional<String> whenToUse, Optional<Boolean> enabled) {
    }

    /** A page of collections; {@code next_cursor} is the last key when more may follow. */
    public record Page(List<DocCollection.View> collections, Optional<String> nextCursor) {
    }

    private final Jdbc jdbc;
    private final Map<String, DocsBackend> backends;
    private final DocsCapabilities capabilities;

    DocCollections(Jdbc jdbc, Map<String, DocsBackend> backends, DocsCapabilities capabilities) {
        this.jdbc = jdbc;
        this.backends = Map.copyOf(backends);
        this.capabilities = capabilities;
    }

    public DocCollection create(Caller c, String key, boolean global, Fields f) {
        if (key == null || !KEY.matcher(key).matches() || key.equals(ALL)) {
            throw DocsErrors.INVALID_KEY.error("a collection key is 1-64 lower-case letters, digits, '.', "
                    + "'_' or '-', starting with a letter or digit ('all' is reserved)", Map.of("field", "key"));
        }
        if (global) {
            c.requirePlatformAdmin();
        }
        Optional<UUID> owner = global ? Optional.empty() : Optional.of(c.tenantId());
        String type = f.backendType().orElseThrow(() -> DocsErrors.INVALID_BACKEND_TYPE.error("backend_type is required; known: " + backends.keySet(), Map.of("field", "backend_type")));
        Map<String, Object> ref = backendRef(type, owner, key, f.backendRef().orElse(Map.of()));
        UUID id = UUID.randomUUID();
        jdbc.inTransaction(conn -> {
            // one key per namespace, and a tenant key never shadows a global one: serialize creates of a key
            Jdbc.query(conn, "SELECT pg_advisory_xact_lock(hashtext('docs:' || ?))", rs -> 1, key);
            List<Integer> clash = Jdbc.query(conn, "SELECT 1 FROM docs_collections WHERE key = ? AND "
                    + (global ? "TRUE" : "(tenant_id IS NULL OR tenant_id = ?)"), rs -> 1,
                    global ? new Object[] {key} : new Object[] {key, c.tenantId()});
            if (!clash.isEmpty()) {
                throw DocsErrors.COLLECTION_EXISTS.error("a doc collection '" + key
                        + "' already exists" + (global ? "" : " in this tenant or globally"), Map.of("collection", key));
            }
            return Jdbc.update(conn, """
                    INSERT INTO docs_collections (id, tenant_id, key, backend_type, backend_ref, description, product,
                           vendor, when_to_use, enabled, created_by, updated_by)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", id, owner.orElse(null), key, type, Jdbc.jsonb(ref),
                    f.description().orElse(""), Jdbc.jsonb(products(f.product().orElse(List.of()))),
                    blankToNull(f.vendor()), blankToNull(f.whenToUse()), f.enabled().orElse(true), c.sub(), c.sub());
        });
        return byId(id);
    }

    public DocCollection update(Caller c, String key, Fields f) {
        DocCollection e = managed(c, key);
        String type = f.backendType().orElse(e.backendType());
        Map<String, Object> ref = f.backendRef().isPresent() || !type.equals(e.backendType())
                ? backendRef(type, e.ownerTenantId(), key, f.backendRef().orElse(e.backendRef())) : e.backendRef();
        jdbc.update("""
                UPDATE docs_collections SET backend_type = ?, backend_ref = ?, description = ?, product = ?, vendor = ?,
                       when_to_use = ?, enabled = ?, updated_at = now(), updated_by = ? WHERE id = ?""",
                type, Jdbc.jsonb(ref), f.description().orElse(e.description()),
                Jdbc.jsonb(f.product().map(DocCollections::products).orElse(e.product())),
                f.vendor().isPresent() ? blankToNull(f.vendor()) : e.vendor().orElse(null),
                f.whenToUse().isPresent() ? blankToNull(f.whenToUse()) : e.whenToUse().orElse(null),
                f.enabled().orElse(e.enabled()), c.sub(), e.id());
        return byId(e.id());
    }

    public DocCollection setEnabled(Caller c, String key, boolean enabled) {
        DocCollection e = managed(c, key);
        jdbc.update("UPDATE docs_collections SET enabled = ?, updated_at = now(), updated_by = ? WHERE id = ?",
                enabled, c.sub(), e.id());
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
        int deleted = jdbc.update("DELETE FROM docs_collections WHERE id = ? AND NOT enabled", e.id());
        if (deleted == 0) {
            throw DocsErrors.COLLECTION_ENABLED.error("collection '" + key + "' is enabled; "
                    + "disable it first (svc docs collections disable " + key + ")", Map.of("collection", key));
        }
    }

    /** Collections the caller can see: its tenant's own, the globals its tenant holds (all globals for a platform_admin). */
    public Page list(Caller c, Optional<String> cursor, int limit, Optional<String> vendor) {
        if (limit < 1 || limit > LIST_MAX) {
            throw CommonErrors.INVALID_LIMIT.error("limit must be 1.." + LIST_MAX, Map.of("field", "limit"));
        }
        List<DocCollection> rows = jdbc.query("""
                SELECT d.* FROM docs_collections d
                 WHERE (d.tenant_id = ? OR (d.tenant_id IS NULL AND (? OR EXISTS (SELECT 1 FROM docs_collection_grants g
                        WHERE g.collection_id = d.id AND g.tenant_id = ?))))
                   AND d.key > ? AND (?::text IS NULL OR d.vendor = ?)
                 ORDER BY d.key, d.tenant_id NULLS LAST LIMIT ?""", DocCollections::row, c.tenantId(),
                c.platformAdmin(), c.tenantId(), cursor.orElse(""), vendor.orElse(null), vendor.orElse(null), limit + 1);
        List<DocCollection.View> page = new ArrayList<>();
        for (DocCollection d : rows.subList(0, Math.min(limit, rows.size()))) {
            page.add(d.view(d.enabled() && capabilities.holds(c.tenantId(), d)));
        }
        return new Page(page, rows.size() > limit ? Optional.of(page.getLast().key()) : Optional.empty());
    }

    /** Every enabled collection the tenant holds the capability for, by key. */
    public List<DocCollection> searchable(UUID tenant) {
        return jdbc.query("""
                SELECT d.* FROM docs_collections d
                 WHERE d.enabled AND (d.tenant_id = ? OR (d.tenant_id IS NULL AND EXISTS (SELECT 1
                       FROM docs_collection_grants g WHERE g.collection_id = d.id AND g.tenant_id = ?)))
                 ORDER BY d.key, d.tenant_id NULLS LAST""", DocCollections::row, tenant, tenant);
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
        return jdbc.queryOne("SELECT * FROM docs_collections WHERE key = ? AND (tenant_id = ? OR tenant_id IS NULL) "
                + "ORDER BY tenant_id NULLS LAST LIMIT 1", DocCollections::row, key, tenant)
                .orElseThrow(() -> notFound(key));
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
                    List.copyOf(new java.util.TreeSet<>(backends.keySet()))));
        }
        return ref.isEmpty() ? Map.of() : b.validate(owner, key, ref); // '{}' clears the backend
    }

    private static List<String> products(List<String> product) {
        if (product.size() > MAX_PRODUCTS || product.stream().anyMatch(p -> p == null || p.isBlank() || p.length() > 128)) {
            throw DocsErrors.INVALID_PRODUCT.error("product is a list of up to " + MAX_PRODUCTS
                    + " non-empty strings", Map.of("field", "product"));
        }
        return product.stream().map(String::strip).distinct().toList();
    }

    private static String blankToNull(Optional<String> v) {
        return v.filter(s -> !s.isBlank()).map(String::strip).orElse(null);
    }

    private DocCollection byId(UUID id) {
        return jdbc.queryOne("SELECT * FROM docs_collections WHERE id = ?", DocCollections::row, id).orElseThrow();
    }

    @SuppressWarnings("unchecked")
    static DocCollection row(ResultSet rs) throws SQLException {
        try {
            return new DocCollection(rs.getObject("id", UUID.class), Optional.ofNullable(rs.getObject("tenant_id",
                    UUID.class)), rs.getString("key"), rs.getString("backend_type"),
                    JsonMapping.mapper().readValue(rs.getString("backend_ref"), Map.class), rs.getString("description"),
                    JsonMapping.mapper().readValue(rs.getString("product"), List.class),
                    Optional.ofNullable(rs.getString("vendor")), Optional.ofNullable(rs.getString("when_to_use")),
                    rs.getBoolean("enabled"), rs.getTimestamp("created_at").toInstant(),
                    rs.getTimestamp("updated_at").toInstant());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new SQLException("docs collection JSON column is malformed", e);
        }
    }
}
