package dev.backplane.kernel.memory;

import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.memory.MemoryService.Entry;
import dev.backplane.kernel.persistence.FilteredSelect;
import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiFunction;

/**
 * SQL for memory entries ({@code memory_entries}). Every read on a caller's behalf carries the scope rules'
 * visibility condition, so what the caller may not read never leaves the database.
 */
final class MemoryStore {

    /** An entry the sweep deleted, with what its retrieval partition is computed from. */
    record Swept(UUID id, UUID tenant, String owner, String scope) {
    }

    /** Who sees what (SPEC scope rules); four parameters: sub, tenant, sub, tenant. */
    private static final String VISIBLE = """
            ((scope = 'user' AND owner_sub = ?)
              OR (scope IN ('user-tenant', 'user-target') AND tenant_id = ? AND owner_sub = ?)
              OR (scope IN ('tenant', 'target') AND tenant_id = ?))""";

    private final Jdbc jdbc;

    MemoryStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    <T> T inTransaction(Jdbc.TxBody<T> body) {
        return jdbc.inTransaction(body);
    }

    /** Writes the entry, or replaces body, metadata and expiry of the one with its natural key; returns its id. */
    static UUID upsert(Connection c, UUID id, String scope, UUID tenant, String owner, String target, String slug,
                       String body, Map<String, Object> metadata, Optional<Instant> expires, String createdBy)
            throws SQLException {
        return Jdbc.query(c, """
                INSERT INTO memory_entries (id, scope, tenant_id, owner_sub, target_name, slug, body, metadata, expires_at,
                                            created_by)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (scope, coalesce(tenant_id::text, ''), coalesce(owner_sub, ''), coalesce(target_name, ''), slug)
                DO UPDATE SET body = EXCLUDED.body, metadata = EXCLUDED.metadata, expires_at = EXCLUDED.expires_at,
                              updated_at = now()
                RETURNING id""", rs -> rs.getObject(1, UUID.class), id, scope, tenant, owner, target, slug, body,
                Jdbc.jsonb(metadata), expires.map(Timestamp::from).orElse(null), createdBy).getFirst();
    }

    /** Entries the caller can see with the given filters, newest first. */
    List<Entry> list(Caller caller, Optional<String> scope, Optional<String> slugPattern, Optional<String> tag,
                     boolean includeExpired, int limit, int offset) {
        return new FilteredSelect("SELECT * FROM memory_entries WHERE " + VISIBLE, caller.sub(), caller.tenantId(),
                caller.sub(), caller.tenantId())
                .and("scope = ?", scope)
                .and("strpos(slug, ?) > 0", slugPattern)
                .and("jsonb_exists(metadata -> 'tags', ?)", tag)
                .andIf(!includeExpired, "(expires_at IS NULL OR expires_at > now())")
                .append(" ORDER BY created_at DESC, id LIMIT ? OFFSET ?", limit, offset)
                .query(jdbc, MemoryStore::entry);
    }

    /** Every live entry the caller can see, oldest first, at most {@code max}. */
    List<Entry> visible(Caller caller, int max) {
        return jdbc.query("SELECT * FROM memory_entries WHERE " + VISIBLE + " AND (expires_at IS NULL OR expires_at > "
                + "now()) ORDER BY created_at, id LIMIT ?", MemoryStore::entry, caller.sub(), caller.tenantId(),
                caller.sub(), caller.tenantId(), max);
    }

    /** The live entries the caller can see by scope and slug (one per target unless {@code targetName} is given). */
    List<Entry> visibleBySlug(Caller caller, String scope, String slug, Optional<String> targetName) {
        return jdbc.query("SELECT * FROM memory_entries WHERE " + VISIBLE + " AND scope = ? AND slug = ? "
                        + "AND (expires_at IS NULL OR expires_at > now()) AND (CAST(? AS text) IS NULL OR target_name = ?) ORDER BY created_at",
                MemoryStore::entry, caller.sub(), caller.tenantId(), caller.sub(), caller.tenantId(), scope, slug,
                targetName.orElse(null), targetName.orElse(null));
    }

    /** Ids of the live entries of one scope the caller can see. */
    Set<UUID> visibleIds(Caller caller, String scope) {
        return new HashSet<>(jdbc.query("SELECT id FROM memory_entries WHERE " + VISIBLE
                + " AND (expires_at IS NULL OR expires_at > now()) AND scope = ?", rs -> rs.getObject(1, UUID.class),
                caller.sub(), caller.tenantId(), caller.sub(), caller.tenantId(), scope));
    }

    /** Ids of the expired (not yet swept) entries the caller can see. */
    Set<UUID> expiredVisibleIds(Caller caller) {
        return new HashSet<>(jdbc.query("SELECT id FROM memory_entries WHERE "
                + "expires_at <= now() AND " + VISIBLE, rs -> rs.getObject(1, UUID.class), caller.sub(),
                caller.tenantId(), caller.sub(), caller.tenantId()));
    }

    /** Of these ids, the live entries the caller can see. */
    List<Entry> visibleAmong(Caller caller, UUID[] ids) {
        return jdbc.query("SELECT * FROM memory_entries WHERE id = ANY (?) AND " + VISIBLE
                        + " AND (expires_at IS NULL OR expires_at > now())", MemoryStore::entry,
                ids, caller.sub(), caller.tenantId(), caller.sub(), caller.tenantId());
    }

    Optional<Entry> byId(UUID id) {
        return jdbc.queryOne("SELECT * FROM memory_entries WHERE id = ?", MemoryStore::entry, id);
    }

    /** The writer of a personal entry; empty for a shared one or a missing id. */
    Optional<String> ownerOf(UUID id) {
        return jdbc.queryOne("SELECT owner_sub FROM memory_entries WHERE id = ?", rs -> rs.getString(1), id);
    }

    void delete(UUID id) {
        jdbc.update("DELETE FROM memory_entries WHERE id = ?", id);
    }

    /** Deletes every expired entry in one statement; returns what it deleted. */
    List<Swept> deleteExpired() {
        return jdbc.query("DELETE FROM memory_entries WHERE expires_at IS NOT NULL AND expires_at <= now() "
                + "RETURNING id, tenant_id, owner_sub, scope", rs -> new Swept(rs.getObject(1, UUID.class),
                rs.getObject(2, UUID.class), rs.getString(3), rs.getString(4)));
    }

    private static Entry entry(ResultSet rs) throws SQLException {
        Map<String, Object> meta = Jdbc.jsonObject(rs, "metadata");
        Timestamp exp = rs.getTimestamp("expires_at");
        return new Entry(rs.getObject("id", UUID.class), rs.getString("scope"), rs.getString("slug"), rs.getString("body"),
                meta, Optional.ofNullable(rs.getString("target_name")), Optional.ofNullable(exp).map(Timestamp::toInstant),
                rs.getTimestamp("created_at").toInstant());
    }

    /** The indexed text of each of {@code ids} that exists, on the caller's transaction (a model change's fill). */
    static Map<UUID, String> indexTexts(Connection c, List<UUID> ids, BiFunction<String, String, String> text)
            throws SQLException {
        Map<UUID, String> out = new HashMap<>();
        Jdbc.query(c, "SELECT id, slug, body FROM memory_entries WHERE id = ANY (?)",
                rs -> out.put(rs.getObject(1, UUID.class), text.apply(rs.getString(2), rs.getString(3))),
                (Object) ids.toArray(UUID[]::new));
        return out;
    }
}
