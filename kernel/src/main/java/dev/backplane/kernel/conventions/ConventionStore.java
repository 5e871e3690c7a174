package dev.backplane.kernel.conventions;

import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The SQL of {@code conventions} and {@code convention_versions}; no rules. Writes that go with a version row and
 * the search index run in one transaction ({@link #inTransaction}) through the methods taking a connection.
 */
final class ConventionStore {

    /** One stored version of a convention. */
    record VersionRow(int version, String title, String kind, int priority, String body, String by, Instant at) {
    }

    private final Jdbc jdbc;

    ConventionStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    <T> T inTransaction(Jdbc.TxBody<T> body) {
        return jdbc.inTransaction(body);
    }

    /** Inserts version 1 of a convention; false (nothing written) when the tenant has that slug already. */
    static boolean insert(Connection c, UUID id, UUID tenant, String slug, String title, String kind, int priority,
                          String body, String by) throws SQLException {
        return Jdbc.update(c, """
                INSERT INTO conventions (id, tenant_id, slug, title, kind, priority, body, version, created_by,
                                         updated_by)
                VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?) ON CONFLICT (tenant_id, slug) DO NOTHING""", id, tenant,
                slug, title, kind, priority, body, by, by) != 0;
    }

    /** Moves a convention from {@code version} to {@code next}; false (nothing written) when it is not at version. */
    static boolean update(Connection c, UUID id, int version, int next, String title, String kind, int priority,
                          String body, String by) throws SQLException {
        return Jdbc.update(c, """
                UPDATE conventions SET title = ?, kind = ?, priority = ?, body = ?, version = ?, updated_at = now(),
                       updated_by = ?
                WHERE id = ? AND version = ?""", title, kind, priority, body, next, by, id, version) != 0;
    }

    /** Records one version's content. */
    static void addVersion(Connection c, UUID id, int version, String title, String kind, int priority, String body,
                           String by) throws SQLException {
        Jdbc.update(c, """
                INSERT INTO convention_versions (convention_id, version, title, kind, priority, body, changed_by)
                VALUES (?, ?, ?, ?, ?, ?, ?)""", id, version, title, kind, priority, body, by);
    }

    /** Deletes a convention (its versions go with it). */
    static void delete(Connection c, UUID id) throws SQLException {
        Jdbc.update(c, "DELETE FROM conventions WHERE id = ?", id);
    }

    Optional<Convention> find(UUID tenant, String slug) {
        return jdbc.queryOne("SELECT * FROM conventions WHERE tenant_id = ? AND slug = ?", ConventionStore::row,
                tenant, slug);
    }

    /** A page of the tenant's conventions (of one kind, if given), highest priority first, then by slug. */
    List<Convention> list(UUID tenant, Optional<String> kind, int limit, int offset) {
        return jdbc.query("""
                SELECT * FROM conventions WHERE tenant_id = ? AND (CAST(? AS text) IS NULL OR kind = ?)
                ORDER BY priority DESC, slug LIMIT ? OFFSET ?""", ConventionStore::row, tenant, kind.orElse(null),
                kind.orElse(null), limit, offset);
    }

    /** The newest {@code limit} versions of a convention, newest first. */
    List<VersionRow> versions(UUID conventionId, int limit) {
        return jdbc.query("""
                SELECT * FROM convention_versions WHERE convention_id = ? ORDER BY version DESC LIMIT ?""",
                rs -> new VersionRow(rs.getInt("version"), rs.getString("title"), rs.getString("kind"),
                        rs.getInt("priority"), rs.getString("body"), rs.getString("changed_by"),
                        rs.getTimestamp("changed_at").toInstant()), conventionId, limit);
    }

    /** The ids of the tenant's conventions of one kind. */
    Set<UUID> idsOfKind(UUID tenant, String kind) {
        return new HashSet<>(jdbc.query("SELECT id FROM conventions WHERE tenant_id = ? AND kind = ?",
                rs -> rs.getObject(1, UUID.class), tenant, kind));
    }

    /** The tenant's searchable (non-operational) conventions among these ids. */
    List<Convention> searchableAmong(UUID tenant, UUID[] ids) {
        return jdbc.query("SELECT * FROM conventions WHERE tenant_id = ? AND id = ANY (?) AND kind <> 'operational'",
                ConventionStore::row, tenant, ids);
    }

    /** The tenant's searchable conventions, oldest first, at most {@code max}. */
    List<Convention> searchable(UUID tenant, int max) {
        return jdbc.query("SELECT * FROM conventions WHERE tenant_id = ? AND kind <> 'operational' ORDER BY created_at, "
                + "id LIMIT ?", ConventionStore::row, tenant, max);
    }

    /** The tenant's operational conventions with bodies of at most {@code maxBodyChars}, in packing order. */
    List<Convention> operational(UUID tenant, long maxBodyChars, int max) {
        return jdbc.query("""
                SELECT * FROM conventions WHERE tenant_id = ? AND kind = 'operational' AND length(body) <= ?
                ORDER BY priority DESC, created_at, slug LIMIT ?""", ConventionStore::row, tenant, maxBodyChars, max);
    }

    private static Convention row(ResultSet rs) throws SQLException {
        return new Convention(rs.getObject("id", UUID.class), rs.getString("slug"), rs.getString("title"),
                rs.getString("kind"), rs.getInt("priority"), rs.getString("body"), rs.getInt("version"),
                rs.getTimestamp("created_at").toInstant(), rs.getString("created_by"),
                rs.getTimestamp("updated_at").toInstant(), rs.getString("updated_by"));
    }

    /** The indexed text of each of {@code ids} that exists, on the caller's transaction (a model change's fill). */
    static Map<UUID, String> indexTexts(Connection c, List<UUID> ids) throws SQLException {
        Map<UUID, String> out = new HashMap<>();
        Jdbc.query(c, "SELECT id, slug, title, body FROM conventions WHERE id = ANY (?)",
                rs -> out.put(rs.getObject(1, UUID.class), ConventionSearch.indexText(rs.getString(2), rs.getString(3),
                        rs.getString(4))), (Object) ids.toArray(UUID[]::new));
        return out;
    }
}
