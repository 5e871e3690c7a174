package dev.backplane.kernel.runbooks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.runbooks.RunbookTemplate.Status;
import dev.backplane.kernel.util.Paging;
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
 * from published versions only. The version moves are {@link RunbookTemplate.Status}'s, the SQL
 * {@link RunbookTemplateStore}'s.
 */
public final class RunbookTemplates {

    public static final Paging.Size PAGE = new Paging.Size(100, 500);
    private static final Pattern SLUG = Pattern.compile("[a-z0-9](?:[a-z0-9-]{0,126}[a-z0-9])?");

    private final RunbookTemplateStore store;

    public RunbookTemplates(Jdbc jdbc) {
        this.store = new RunbookTemplateStore(jdbc);
    }

    /** The first draft of a new template (version 1). */
    public RunbookTemplate draft(Caller caller, String slug, String yaml) {
        checkSlug(slug);
        JsonNode definition = RunbookYaml.parse(yaml);
        return store.inTransaction(c -> {
            RunbookTemplateStore.lock(c, caller.tenantId(), slug);
            if (!RunbookTemplateStore.versions(c, caller.tenantId(), slug).isEmpty()) {
                throw RunbookErrors.TEMPLATE_EXISTS.error("runbook template '" + slug + "' exists; change it with "
                        + "edit-template", Map.of("slug", slug));
            }
            RunbookTemplateStore.insertDraft(c, caller.tenantId(), slug, 1, yaml, definition, caller.sub());
            return RunbookTemplateStore.one(c, caller.tenantId(), slug, 1);
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
        return store.inTransaction(c -> {
            RunbookTemplateStore.lock(c, caller.tenantId(), slug);
            List<RunbookTemplate> all = RunbookTemplateStore.versions(c, caller.tenantId(), slug);
            if (all.isEmpty()) {
                throw notFound(slug);
            }
            Optional<RunbookTemplate> draft = all.stream().filter(t -> t.state() == Status.DRAFT).findFirst();
            if (draft.isPresent()) {
                RunbookTemplateStore.updateDraft(c, caller.tenantId(), slug, draft.get().version(), yaml, definition,
                        caller.sub());
                return RunbookTemplateStore.one(c, caller.tenantId(), slug, draft.get().version());
            }
            int next = all.getFirst().version() + 1;
            RunbookTemplateStore.insertDraft(c, caller.tenantId(), slug, next, yaml, definition, caller.sub());
            return RunbookTemplateStore.one(c, caller.tenantId(), slug, next);
        });
    }

    /** Publishes the draft: from now on that version never changes. */
    public RunbookTemplate publish(Caller caller, String slug) {
        return store.inTransaction(c -> {
            RunbookTemplateStore.lock(c, caller.tenantId(), slug);
            List<RunbookTemplate> all = RunbookTemplateStore.versions(c, caller.tenantId(), slug);
            if (all.isEmpty()) {
                throw notFound(slug);
            }
            RunbookTemplate draft = all.stream().filter(t -> t.state().canMoveTo(Status.PUBLISHED)).findFirst()
                    .orElseThrow(() -> RunbookErrors.TEMPLATE_STATE.error("runbook template '" + slug + "' has no draft "
                            + "to publish (edit-template makes one)", Map.of("slug", slug)));
            RunbookTemplateStore.publish(c, caller.tenantId(), slug, draft.version(), caller.sub());
            return RunbookTemplateStore.one(c, caller.tenantId(), slug, draft.version());
        });
    }

    /** Retires one published version: no new run starts from it; runs in flight finish. */
    public RunbookTemplate deprecate(Caller caller, String slug, Integer version) {
        if (version == null || version < 1) {
            throw RunbookErrors.INVALID_RUNBOOK.error("version (a positive integer) is required", Map.of("field",
                    "version"));
        }
        return store.inTransaction(c -> {
            RunbookTemplateStore.lock(c, caller.tenantId(), slug);
            RunbookTemplate t = RunbookTemplateStore.versions(c, caller.tenantId(), slug).stream()
                    .filter(v -> v.version() == version).findFirst().orElseThrow(() -> RunbookErrors.TEMPLATE_NOT_FOUND.error("runbook template '" + slug
                            + "' has no version " + version, Map.of("slug", slug, "version", version)));
            if (!t.state().canMoveTo(Status.DEPRECATED)) {
                throw RunbookErrors.TEMPLATE_STATE.error("version " + version + " of '" + slug + "' is " + t.status()
                        + "; only a published version can be deprecated", Map.of("status", t.status()));
            }
            RunbookTemplateStore.deprecate(c, caller.tenantId(), slug, version, caller.sub());
            return RunbookTemplateStore.one(c, caller.tenantId(), slug, version);
        });
    }

    /** Every version, newest first within a slug, slugs in order. */
    public List<RunbookTemplate> list(UUID tenant, Optional<String> status, Optional<String> targetKind, int limit,
                                      int offset) {
        Paging page = PAGE.checked(limit, offset);
        status.ifPresent(s -> {
            if (Status.parse(s).isEmpty()) {
                throw CommonErrors.INVALID_STATUS.error("status must be one of " + Status.wireNames() + ", got '" + s
                        + "'", Map.of("field", "status"));
            }
        });
        return store.list(tenant, status, targetKind, page);
    }

    /** One version, or the newest when none is named. */
    public RunbookTemplate show(UUID tenant, String slug, Optional<Integer> version) {
        List<RunbookTemplate> all = store.versions(tenant, slug);
        if (all.isEmpty()) {
            throw notFound(slug);
        }
        return version.map(v -> all.stream().filter(t -> t.version() == v).findFirst().orElseThrow(() ->
                RunbookErrors.TEMPLATE_NOT_FOUND.error("runbook template '" + slug + "' has no version " + v,
                        Map.of("slug", slug, "version", v)))).orElse(all.getFirst());
    }

    /** The version a run starts from: the named one, or the newest published; it must be published. */
    RunbookTemplate runnable(UUID tenant, String slug, Optional<Integer> version) {
        List<RunbookTemplate> all = store.versions(tenant, slug);
        if (all.isEmpty()) {
            throw notFound(slug);
        }
        if (version.isPresent()) {
            RunbookTemplate t = show(tenant, slug, version);
            if (t.state() != Status.PUBLISHED) {
                throw RunbookErrors.TEMPLATE_STATE.error("version " + t.version() + " of '" + slug + "' is " + t.status()
                        + "; runs start from published versions only", Map.of("status", t.status()));
            }
            return t;
        }
        return all.stream().filter(t -> t.state() == Status.PUBLISHED).findFirst().orElseThrow(() ->
                RunbookErrors.TEMPLATE_STATE.error("runbook template '" + slug + "' has no published version",
                        Map.of("slug", slug)));
    }

    /** The newest published version of each template: what agents may read. */
    public List<RunbookTemplate> published(UUID tenant) {
        return store.published(tenant);
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
}
