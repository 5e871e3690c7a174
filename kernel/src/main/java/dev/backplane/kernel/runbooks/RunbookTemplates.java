package dev.backplane.kernel.runbooks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.FilteredSelect;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.Paging;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Runbook templates (SPEC "Runbook template"): {@code draft-template} creates version 1 as a draft;
 * {@code edit-template} changes the draft in place, or — when the newest version is published —
 * forks the next version as a new draft (a published version never changes); {@code publish-template}
 * publishes the draft; {@code deprecate-template --version} retires one published version. Runs start
 * from published versions only.
 */
public final class RunbookTemplates {

    public static final Paging.Size PAGE = new Paging.Size(100, 500);
    private static final Pattern SLUG = Pattern.compile("[a-z0-9](?:[a-z0-9-]{0,126}[a-z0-9])?");
    private static final List<String> STATUSES = List.of(RunbookTemplate.DRAFT, RunbookTemplate.PUBLISHED,
            RunbookTemplate.DEPRECATED);

    private final Jdbc jdbc;

    public RunbookTemplates(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** The first draft of a new template (version 1). */
    public RunbookTemplate draft(Caller caller, String slug, String yaml) {
        checkSlug(slug);
        JsonNode definition = RunbookYaml.parse(yaml);
        return jdbc.inTransaction(c -> {
            lock(c, caller.tenantId(), slug);
            if (!versions(c, caller.tenantId(), slug).isEmpty()) {
                throw RunbookErrors.TEMPLATE_EXISTS.error("runbook template '" + slug + "' exists; change it with "
                        + "edit-template", Map.of("slug", slug));
            }
            insert(c, caller, slug, 1, yaml, definition);
            return one(c, caller.tenantId(), slug, 1);
        });
    }

    /**
     * Changes the draft in place; when there is no draft but a published (or deprecated) version, forks
     * the next version as the new draft.
     */
    public RunbookTemplate edit(Caller caller, String slug, String bodySlug, String yaml) {
        checkSlug(slug);
        if (bodySlug != null && !bodySlug.equals(slug)) {
            throw RunbookErrors.INVALID_RUNBOOK.error("the body's slug differs from the path's (a template cannot be "
                    + "renamed)", Map.of("field", "slug"));
        }
        JsonNode definition = RunbookYaml.parse(yaml);
        return jdbc.inTransaction(c -> {
            lock(c, caller.tenantId(), slug);
            List<RunbookTemplate> all = versions(c, caller.tenantId(), slug);
            if (all.isEmpty()) {
                throw notFound(slug);
            }
            Optional<RunbookTemplate> draft = all.stream().filter(t -> t.status().equals(RunbookTemplate.DRAFT)).findFirst();
            if (draft.isPresent()) {
                Jdbc.update(c, """
                        UPDATE runbook_templates SET source = ?, definition = ?, title = ?, target_kind = ?, updated_by = ?,
                               updated_at = now() WHERE tenant_id = ? AND slug = ? AND version = ?""", yaml,
                        Jdbc.jsonb(definition), definition.path("title").asText(), text(definition, "target_kind"),
                        caller.sub(), caller.tenantId(), slug, draft.get().version());
                return one(c, caller.tenantId(), slug, draft.get().version());
            }
            int next = all.getFirst().version() + 1;
            insert(c, caller, slug, next, yaml, definition);
            return one(c, caller.tenantId(), slug, next);
        });
    }

    /** Publishes the draft: from now on that version never changes. */
    public RunbookTemplate publish(Caller caller, String slug) {
        return jdbc.inTransaction(c -> {
            lock(c, caller.tenantId(), slug);
            List<RunbookTemplate> all = versions(c, caller.tenantId(), slug);
            if (all.isEmpty()) {
                throw notFound(slug);
            }
            RunbookTemplate draft = all.stream().filter(t -> t.status().equals(RunbookTemplate.DRAFT)).findFirst()
                    .orElseThrow(() -> RunbookErrors.TEMPLATE_STATE.error("runbook template '" + slug + "' has no draft "
                            + "to publish (edit-template makes one)", Map.of("slug", slug)));
            Jdbc.update(c, "UPDATE runbook_templates SET status = 'published', published_by = ?, published_at = now() "
                    + "WHERE tenant_id = ? AND slug = ? AND version = ?", caller.sub(), caller.tenantId(), slug,
                    draft.version());
            return one(c, caller.tenantId(), slug, draft.version());
        });
    }

    /** Retires one published version: no new run starts from it; runs in flight finish. */
    public RunbookTemplate deprecate(Caller caller, String slug, Integer version) {
        if (version == null || version < 1) {
            throw RunbookErrors.INVALID_RUNBOOK.error("version (a positive integer) is required", Map.of("field",
                    "version"));
        }
        return jdbc.inTransaction(c -> {
            lock(c, caller.tenantId(), slug);
            RunbookTemplate t = versions(c, caller.tenantId(), slug).stream().filter(v -> v.version() == version)
                    .findFirst().orElseThrow(() -> RunbookErrors.TEMPLATE_NOT_FOUND.error("runbook template '" + slug
                            + "' has no version " + version, Map.of("slug", slug, "version", version)));
            if (!t.status().equals(RunbookTemplate.PUBLISHED)) {
                throw RunbookErrors.TEMPLATE_STATE.error("version " + version + " of '" + slug + "' is " + t.status()
                        + "; only a published version can be deprecated", Map.of("status", t.status()));
            }
            Jdbc.update(c, "UPDATE runbook_templates SET status = 'deprecated', deprecated_by = ?, deprecated_at = now() "
                    + "WHERE tenant_id = ? AND slug = ? AND version = ?", caller.sub(), caller.tenantId(), slug, version);
            return one(c, caller.tenantId(), slug, version);
        });
    }

    /** Every version, newest first within a slug, slugs in order. */
    public List<RunbookTemplate> list(UUID tenant, Optional<String> status, Optional<String> targetKind, int limit,
                                      int offset) {
        Paging page = PAGE.checked(limit, offset);
        status.ifPresent(s -> {
            if (!STATUSES.contains(s)) {
                throw CommonErrors.INVALID_STATUS.error("status must be one of " + STATUSES + ", got '" + s + "'",
                        Map.of("field", "status"));
            }
        });
        return new FilteredSelect("SELECT * FROM runbook_templates WHERE tenant_id = ?", tenant)
                .and("status = ?", status)
                .and("target_kind = ?", targetKind)
                .append(" ORDER BY slug, version DESC LIMIT ? OFFSET ?", page.limit(), page.offset())
                .query(jdbc, RunbookTemplate::read);
    }

    /** One version, or the newest when none is named. */
    public RunbookTemplate show(UUID tenant, String slug, Optional<Integer> version) {
        List<RunbookTemplate> all = jdbc.inTransaction(c -> versions(c, tenant, slug));
        if (all.isEmpty()) {
            throw notFound(slug);
        }
        return version.map(v -> all.stream().filter(t -> t.version() == v).findFirst().orElseThrow(() ->
                RunbookErrors.TEMPLATE_NOT_FOUND.error("runbook template '" + slug + "' has no version " + v,
                        Map.of("slug", slug, "version", v)))).orElse(all.getFirst());
    }

    /** The version a run starts from: the named one, or the newest published; it must be published. */
    RunbookTemplate runnable(UUID tenant, String slug, Optional<Integer> version) {
        List<RunbookTemplate> all = jdbc.inTransaction(c -> versions(c, tenant, slug));
        if (all.isEmpty()) {
            throw notFound(slug);
        }
        if (version.isPresent()) {
            RunbookTemplate t = show(tenant, slug, version);
            if (!t.status().equals(RunbookTemplate.PUBLISHED)) {
                throw RunbookErrors.TEMPLATE_STATE.error("version " + t.version() + " of '" + slug + "' is " + t.status()
                        + "; runs start from published versions only", Map.of("status", t.status()));
            }
            return t;
        }
        return all.stream().filter(t -> t.status().equals(RunbookTemplate.PUBLISHED)).findFirst().orElseThrow(() ->
                RunbookErrors.TEMPLATE_STATE.error("runbook template '" + slug + "' has no published version",
                        Map.of("slug", slug)));
    }

    /** The newest published version of each template: what agents may read. */
    public List<RunbookTemplate> published(UUID tenant) {
        return jdbc.query("""
                SELECT DISTINCT ON (slug) * FROM runbook_templates WHERE tenant_id = ? AND status = 'published'
                ORDER BY slug, version DESC""", RunbookTemplate::read, tenant);
    }

    static DomainException notFound(String slug) {
        return RunbookErrors.TEMPLATE_NOT_FOUND.error("no runbook template '" + slug + "' in this tenant",
                Map.of("slug", String.valueOf(slug)));
    }

    static void checkSlug(String slug) {
        if (slug == null || !SLUG.matcher(slug).matches()) {
            throw CommonErrors.INVALID_SLUG.error("slug must be 1..128 lowercase letters, digits and hyphens (not at "
                    + "either end), got '" + slug + "'", Map.of("field", "slug"));
        }
    }

    private static void lock(Connection c, UUID tenant, String slug) throws SQLException {
        Jdbc.query(c, "SELECT pg_advisory_xact_lock(hashtext(?))", rs -> 1, "runbook/" + tenant + "/" + slug);
    }

    private static List<RunbookTemplate> versions(Connection c, UUID tenant, String slug) throws SQLException {
        return Jdbc.query(c, "SELECT * FROM runbook_templates WHERE tenant_id = ? AND slug = ? ORDER BY version DESC",
                RunbookTemplate::read, tenant, slug);
    }

    private static RunbookTemplate one(Connection c, UUID tenant, String slug, int version) throws SQLException {
        return Jdbc.query(c, "SELECT * FROM runbook_templates WHERE tenant_id = ? AND slug = ? AND version = ?",
                RunbookTemplate::read, tenant, slug, version).getFirst();
    }

    private static void insert(Connection c, Caller caller, String slug, int version, String yaml, JsonNode definition)
            throws SQLException {
        Jdbc.update(c, """
                INSERT INTO runbook_templates (tenant_id, slug, version, status, title, target_kind, source, definition,
                       created_by, updated_by) VALUES (?, ?, ?, 'draft', ?, ?, ?, ?, ?, ?)""", caller.tenantId(), slug,
                version, definition.path("title").asText(), text(definition, "target_kind"), yaml, Jdbc.jsonb(definition),
                caller.sub(), caller.sub());
    }

    private static String text(JsonNode node, String field) {
        return node.hasNonNull(field) ? node.path(field).asText() : null;
    }
}
