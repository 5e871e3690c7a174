package dev.backplane.kernel.runbooks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.persistence.FilteredSelect;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.Paging;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The SQL of runbook templates ({@code runbook_templates}): every version of every slug of a tenant.
 * Writers of one slug serialize on an advisory lock, so version numbers and the one draft hold.
 */
final class RunbookTemplateStore {

    private final Jdbc jdbc;

    RunbookTemplateStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    <T> T inTransaction(Jdbc.TxBody<T> body) {
        return jdbc.inTransaction(body);
    }

    /** Serializes the writers of one slug until the transaction ends. */
    static void lock(Connection c, UUID tenant, String slug) throws SQLException {
        Jdbc.query(c, "SELECT pg_advisory_xact_lock(hashtext(?))", rs -> 1, "runbook/" + tenant + "/" + slug);
    }

    /** Every version of the slug, newest first. */
    List<RunbookTemplate> versions(UUID tenant, String slug) {
        return jdbc.inTransaction(c -> versions(c, tenant, slug));
    }

    static List<RunbookTemplate> versions(Connection c, UUID tenant, String slug) throws SQLException {
        return Jdbc.query(c, "SELECT * FROM runbook_templates WHERE tenant_id = ? AND slug = ? ORDER BY version DESC",
                RunbookTemplateStore::read, tenant, slug);
    }

    static RunbookTemplate one(Connection c, UUID tenant, String slug, int version) throws SQLException {
        return Jdbc.query(c, "SELECT * FROM runbook_templates WHERE tenant_id = ? AND slug = ? AND version = ?",
                RunbookTemplateStore::read, tenant, slug, version).getFirst();
    }

    /** A new draft version, written by {@code author}. */
    static void insertDraft(Connection c, UUID tenant, String slug, int version, String yaml, JsonNode definition,
                            String author) throws SQLException {
        Jdbc.update(c, """
                INSERT INTO runbook_templates (tenant_id, slug, version, status, title, target_kind, source, definition,
                       created_by, updated_by) VALUES (?, ?, ?, 'draft', ?, ?, ?, ?, ?, ?)""", tenant, slug,
                version, definition.path("title").asText(), text(definition, "target_kind"), yaml, Jdbc.jsonb(definition),
                author, author);
    }

    /** The draft's new content, changed in place. */
    static void updateDraft(Connection c, UUID tenant, String slug, int version, String yaml, JsonNode definition,
                            String editor) throws SQLException {
        Jdbc.update(c, """
                UPDATE runbook_templates SET source = ?, definition = ?, title = ?, target_kind = ?, updated_by = ?,
                       updated_at = now() WHERE tenant_id = ? AND slug = ? AND version = ?""", yaml,
                Jdbc.jsonb(definition), definition.path("title").asText(), text(definition, "target_kind"),
                editor, tenant, slug, version);
    }

    static void publish(Connection c, UUID tenant, String slug, int version, String by) throws SQLException {
        Jdbc.update(c, "UPDATE runbook_templates SET status = 'published', published_by = ?, published_at = now() "
                + "WHERE tenant_id = ? AND slug = ? AND version = ?", by, tenant, slug, version);
    }

    static void deprecate(Connection c, UUID tenant, String slug, int version, String by) throws SQLException {
        Jdbc.update(c, "UPDATE runbook_templates SET status = 'deprecated', deprecated_by = ?, deprecated_at = now() "
                + "WHERE tenant_id = ? AND slug = ? AND version = ?", by, tenant, slug, version);
    }

    /** Every version, newest first within a slug, slugs in order. */
    List<RunbookTemplate> list(UUID tenant, Optional<String> status, Optional<String> targetKind, Paging page) {
        return new FilteredSelect("SELECT * FROM runbook_templates WHERE tenant_id = ?", tenant)
                .and("status = ?", status)
                .and("target_kind = ?", targetKind)
                .append(" ORDER BY slug, version DESC LIMIT ? OFFSET ?", page.limit(), page.offset())
                .query(jdbc, RunbookTemplateStore::read);
    }

    /** The newest published version of each template. */
    List<RunbookTemplate> published(UUID tenant) {
        return jdbc.query("""
                SELECT DISTINCT ON (slug) * FROM runbook_templates WHERE tenant_id = ? AND status = 'published'
                ORDER BY slug, version DESC""", RunbookTemplateStore::read, tenant);
    }

    static RunbookTemplate read(ResultSet rs) throws SQLException {
        JsonNode definition = Jdbc.jsonTree(rs, "definition");
        return new RunbookTemplate(rs.getString("slug"), rs.getInt("version"), rs.getString("status"),
                rs.getString("title"), Optional.ofNullable(rs.getString("target_kind")), definition.path("steps").size(),
                rs.getString("source"), definition, rs.getString("created_by"), rs.getTimestamp("created_at").toInstant(),
                rs.getString("updated_by"), rs.getTimestamp("updated_at").toInstant(),
                Optional.ofNullable(rs.getString("published_by")), instant(rs, "published_at"),
                Optional.ofNullable(rs.getString("deprecated_by")), instant(rs, "deprecated_at"));
    }

    private static Optional<Instant> instant(ResultSet rs, String column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? Optional.empty() : Optional.of(t.toInstant());
    }

    private static String text(JsonNode node, String field) {
        return node.hasNonNull(field) ? node.path(field).asText() : null;
    }
}
