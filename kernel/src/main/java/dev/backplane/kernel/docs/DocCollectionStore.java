package dev.backplane.kernel.docs;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.JsonMapping;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * SQL for doc collections ({@code docs_collections}) and the grants of the global ones' capabilities
 * ({@code docs_collection_grants}); no rules. A create takes the transaction's {@link Connection}.
 */
final class DocCollectionStore {

    /** The columns of a collection as written; {@code vendor} and {@code whenToUse} null store SQL NULL. */
    record Values(String backendType, Map<String, Object> backendRef, String description, List<String> product,
                  String vendor, String whenToUse, boolean enabled) {
    }

    private final Jdbc jdbc;

    DocCollectionStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    <T> T inTransaction(Jdbc.TxBody<T> body) {
        return jdbc.inTransaction(body);
    }

    /** Serializes creates of one key until commit (one key per namespace, a tenant key never shadows a global one). */
    static void lockKey(Connection c, String key) throws SQLException {
        Jdbc.query(c, "SELECT pg_advisory_xact_lock(hashtext('docs:' || ?))", rs -> 1, key);
    }

    /** Whether the key is taken: by any collection for a global create, else by a global or the tenant's own. */
    static boolean keyTaken(Connection c, String key, Optional<UUID> owner) throws SQLException {
        return !Jdbc.query(c, "SELECT 1 FROM docs_collections WHERE key = ? AND "
                + (owner.isEmpty() ? "TRUE" : "(tenant_id IS NULL OR tenant_id = ?)"), rs -> 1,
                owner.isEmpty() ? new Object[] {key} : new Object[] {key, owner.get()}).isEmpty();
    }

    static void insert(Connection c, UUID id, Optional<UUID> owner, String key, Values v, String actor)
            throws SQLException {
        Jdbc.update(c, """
                INSERT INTO docs_collections (id, tenant_id, key, backend_type, backend_ref, description, product,
                       vendor, when_to_use, enabled, created_by, updated_by)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", id, owner.orElse(null), key, v.backendType(),
                Jdbc.jsonb(v.backendRef()), v.description(), Jdbc.jsonb(v.product()), v.vendor(), v.whenToUse(),
                v.enabled(), actor, actor);
    }

    void update(UUID id, Values v, String actor) {
        jdbc.update("""
                UPDATE docs_collections SET backend_type = ?, backend_ref = ?, description = ?, product = ?, vendor = ?,
                       when_to_use = ?, enabled = ?, updated_at = now(), updated_by = ? WHERE id = ?""",
                v.backendType(), Jdbc.jsonb(v.backendRef()), v.description(), Jdbc.jsonb(v.product()), v.vendor(),
                v.whenToUse(), v.enabled(), actor, id);
    }

    void setEnabled(UUID id, boolean enabled, String actor) {
        jdbc.update("UPDATE docs_collections SET enabled = ?, updated_at = now(), updated_by = ? WHERE id = ?",
                enabled, actor, id);
    }

    /** Deletes the collection if it is disabled; false when it is enabled (nothing deleted). */
    boolean deleteDisabled(UUID id) {
        return jdbc.update("DELETE FROM docs_collections WHERE id = ? AND NOT enabled", id) > 0;
    }

    /**
     * Up to {@code limit} collections after {@code afterKey} by key that the tenant sees: its own, and the globals it
     * holds a grant of ({@code allGlobals}: every global).
     */
    List<DocCollection> visiblePage(UUID tenant, boolean allGlobals, String afterKey, Optional<String> vendor,
                                    int limit) {
        return jdbc.query("""
                SELECT d.* FROM docs_collections d
                 WHERE (d.tenant_id = ? OR (d.tenant_id IS NULL AND (? OR EXISTS (SELECT 1 FROM docs_collection_grants g
                        WHERE g.collection_id = d.id AND g.tenant_id = ?))))
                   AND d.key > ? AND (?::text IS NULL OR d.vendor = ?)
                 ORDER BY d.key, d.tenant_id NULLS LAST LIMIT ?""", DocCollectionStore::row, tenant,
                allGlobals, tenant, afterKey, vendor.orElse(null), vendor.orElse(null), limit);
    }

    /** Every enabled collection the tenant owns or holds a grant of, by key. */
    List<DocCollection> searchable(UUID tenant) {
        return jdbc.query("""
                SELECT d.* FROM docs_collections d
                 WHERE d.enabled AND (d.tenant_id = ? OR (d.tenant_id IS NULL AND EXISTS (SELECT 1
                       FROM docs_collection_grants g WHERE g.collection_id = d.id AND g.tenant_id = ?)))
                 ORDER BY d.key, d.tenant_id NULLS LAST""", DocCollectionStore::row, tenant, tenant);
    }

    /** The collection of that key the tenant sees: its own before a global one. */
    Optional<DocCollection> visible(UUID tenant, String key) {
        return jdbc.queryOne("SELECT * FROM docs_collections WHERE key = ? AND (tenant_id = ? OR tenant_id IS NULL) "
                + "ORDER BY tenant_id NULLS LAST LIMIT 1", DocCollectionStore::row, key, tenant);
    }

    Optional<DocCollection> byId(UUID id) {
        return jdbc.queryOne("SELECT * FROM docs_collections WHERE id = ?", DocCollectionStore::row, id);
    }

    boolean granted(UUID collection, UUID tenant) {
        return !jdbc.query("SELECT 1 FROM docs_collection_grants WHERE "
                + "collection_id = ? AND tenant_id = ?", rs -> 1, collection, tenant).isEmpty();
    }

    /** Grants the capability (idempotent). */
    void grant(UUID collection, UUID tenant, String actor) {
        jdbc.update("INSERT INTO docs_collection_grants (collection_id, tenant_id, granted_by) VALUES (?, ?, ?) "
                + "ON CONFLICT DO NOTHING", collection, tenant, actor);
    }

    /** Revokes the grant; false when there was none. */
    boolean revoke(UUID collection, UUID tenant) {
        return jdbc.update("DELETE FROM docs_collection_grants WHERE collection_id = ? AND tenant_id = ?", collection,
                tenant) > 0;
    }

    List<DocsCapabilities.Grant> grants(DocCollection d) {
        return jdbc.query("SELECT tenant_id, granted_by, granted_at FROM docs_collection_grants WHERE collection_id = ? "
                + "ORDER BY granted_at, tenant_id", rs -> new DocsCapabilities.Grant(d.key(), d.capability(),
                rs.getObject("tenant_id", UUID.class), rs.getString("granted_by"),
                rs.getTimestamp("granted_at").toInstant()), d.id());
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
        } catch (JsonProcessingException e) {
            throw new SQLException("docs collection JSON column is malformed", e);
        }
    }
}
