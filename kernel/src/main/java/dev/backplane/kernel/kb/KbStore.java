package dev.backplane.kernel.kb;

import dev.backplane.kernel.kb.KbService.Entry;
import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiFunction;

/** SQL for kb entries ({@code kb_entries}); every statement is scoped by tenant. */
final class KbStore {

    private final Jdbc jdbc;

    KbStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    <T> T inTransaction(Jdbc.TxBody<T> body) {
        return jdbc.inTransaction(body);
    }

    Optional<Entry> find(UUID tenant, String slug) {
        return jdbc.queryOne("SELECT * FROM kb_entries WHERE tenant_id = ? AND slug = ?", KbStore::entry, tenant, slug);
    }

    /** Records that {@code actor} re-added the entry unchanged (only {@code updated_at} and {@code updated_by} move). */
    void touch(UUID tenant, String slug, String actor) {
        jdbc.update("UPDATE kb_entries SET updated_at = now(), updated_by = ? WHERE tenant_id = ? AND slug = ?",
                actor, tenant, slug);
    }

    /** Writes the entry, or replaces body, hash and metadata of the tenant's entry with this slug. */
    static void upsert(Connection c, UUID id, UUID tenant, String slug, String body, String hash,
                       Map<String, Object> metadata, String actor) throws SQLException {
        Jdbc.update(c, """
                INSERT INTO kb_entries (id, tenant_id, slug, body, body_hash, metadata, created_by, updated_by)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (tenant_id, slug) DO UPDATE SET body = EXCLUDED.body, body_hash = EXCLUDED.body_hash,
                    metadata = EXCLUDED.metadata, updated_at = now(), updated_by = EXCLUDED.updated_by""",
                id, tenant, slug, body, hash, Jdbc.jsonb(metadata), actor, actor);
    }

    /** A page of entries by slug; {@code filter} is a LIKE pattern on the slug. */
    List<Entry> list(UUID tenant, Optional<String> filter, int limit, int offset) {
        return jdbc.query("SELECT * FROM kb_entries WHERE tenant_id = ? AND slug LIKE ? ORDER BY slug LIMIT ? OFFSET ?",
                KbStore::entry, tenant, filter.orElse("%"), limit, offset);
    }

    /** The tenant's entries by slug, at most {@code max}. */
    List<Entry> corpus(UUID tenant, int max) {
        return jdbc.query("SELECT * FROM kb_entries WHERE tenant_id = ? ORDER BY slug LIMIT ?", KbStore::entry, tenant,
                max);
    }

    void delete(UUID tenant, UUID id) {
        jdbc.update("DELETE FROM kb_entries WHERE tenant_id = ? AND id = ?", tenant, id);
    }

    /** The tenant's entries among these ids. */
    List<Entry> among(UUID tenant, UUID[] ids) {
        return jdbc.query("SELECT * FROM kb_entries WHERE tenant_id = ? AND id = ANY (?)", KbStore::entry, tenant, ids);
    }

    /** Of these ids, those whose metadata contains {@code filter}. */
    Set<UUID> matchingAmong(UUID tenant, UUID[] ids, Map<String, Object> filter) {
        return new HashSet<>(jdbc.query(
                "SELECT id FROM kb_entries WHERE tenant_id = ? AND id = ANY (?) AND metadata @> ?",
                rs -> rs.getObject(1, UUID.class), tenant, ids, Jdbc.jsonb(filter)));
    }

    /** Every entry of the tenant whose metadata contains {@code filter}. */
    Set<UUID> matching(UUID tenant, Map<String, Object> filter) {
        return new HashSet<>(jdbc.query(
                "SELECT id FROM kb_entries WHERE tenant_id = ? AND metadata @> ?", rs -> rs.getObject(1, UUID.class),
                tenant, Jdbc.jsonb(filter)));
    }

    private static Entry entry(ResultSet rs) throws SQLException {
        Map<String, Object> meta = Jdbc.jsonObject(rs, "metadata");
        return new Entry(rs.getObject("id", UUID.class), rs.getString("slug"), rs.getString("body"), meta,
                rs.getTimestamp("created_at").toInstant(), rs.getTimestamp("updated_at").toInstant());
    }

    /** The indexed text of each of {@code ids} that exists, on the caller's transaction (a model change's fill). */
    static Map<UUID, String> indexTexts(Connection c, List<UUID> ids, BiFunction<String, String, String> text)
            throws SQLException {
        Map<UUID, String> out = new HashMap<>();
        Jdbc.query(c, "SELECT id, slug, body FROM kb_entries WHERE id = ANY (?)",
                rs -> out.put(rs.getObject(1, UUID.class), text.apply(rs.getString(2), rs.getString(3))),
                (Object) ids.toArray(UUID[]::new));
        return out;
    }
}
