package dev.backplane.kernel.conventions;

import static dev.backplane.kernel.conventions.ConventionChecks.body;
import static dev.backplane.kernel.conventions.ConventionChecks.conflict;
import static dev.backplane.kernel.conventions.ConventionChecks.invalid;
import static dev.backplane.kernel.conventions.ConventionChecks.kind;
import static dev.backplane.kernel.conventions.ConventionChecks.priority;
import static dev.backplane.kernel.conventions.ConventionChecks.required;
import static dev.backplane.kernel.conventions.ConventionChecks.title;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.retrieval.RetrievalEngine;
import dev.backplane.kernel.retrieval.SearchLog;
import dev.backplane.kernel.util.Paging;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A tenant's conventions: create, edit (partial; every change a new version), delete, list, show, history
 * with diffs; workflow and reference conventions searched on the hybrid retrieval engine (surface
 * {@value #SURFACE}); operational ones packed into agents' instructions ({@link #instructions}).
 */
public final class Conventions {

    public static final String SURFACE = "conventions";
    public static final List<String> KINDS = List.of(Convention.OPERATIONAL, Convention.WORKFLOW, Convention.REFERENCE);
    public static final int MAX_BODY_BYTES = 64 * 1024;
    public static final Paging.Size PAGE = new Paging.Size(100, 500);
    public static final int HISTORY_DEFAULT = 20;
    public static final int SEARCH_MAX = 50;

    /** A create or a (partial) edit; {@code expected_version} makes an edit fail if someone else changed it first. */
    public record Write(String slug, String title, String kind, JsonNode priority, String body, Integer expectedVersion) {
    }

    /** A convention in a list: everything but the body. */
    public record Summary(String slug, String title, String kind, int priority, int version, Instant updatedAt,
                          String updatedBy) {
    }

    /** A search hit: never the full body. */
    public record Hit(String slug, String title, String kind, int priority, String snippet, double score) {
    }

    private final ConventionStore store;
    private final RetrievalEngine engine;
    private final ConventionSearch searcher;
    private final int tokenBudget;

    public Conventions(Jdbc jdbc, RetrievalEngine engine, int tokenBudget) {
        this.store = new ConventionStore(jdbc);
        this.engine = engine;
        this.searcher = new ConventionSearch(store, engine);
        this.tokenBudget = tokenBudget;
    }

    public Convention create(Caller caller, Write w) {
        ConventionChecks.slug(w.slug());
        if (w.expectedVersion() != null) {
            throw invalid("expected_version", "expected_version only goes with an edit");
        }
        String title = title(required(w.title(), "title"));
        String kind = kind(required(w.kind(), "kind"));
        int priority = w.priority() == null ? 0 : priority(w.priority());
        String body = body(required(w.body(), "body"));
        UUID id = UUID.randomUUID();
        Optional<RetrievalEngine.Prepared> prepared = searcher.prepare(w.slug(), title, kind, body);
        boolean inserted = store.inTransaction(c -> {
            if (!ConventionStore.insert(c, id, caller.tenantId(), w.slug(), title, kind, priority, body, caller.sub())) {
                return false;
            }
            ConventionStore.addVersion(c, id, 1, title, kind, priority, body, caller.sub());
            if (prepared.isPresent()) {
                engine.indexIn(c, caller.tenantId(), SURFACE, id, prepared.get());
            }
            return true;
        });
        if (!inserted) {
            throw ConventionErrors.CONVENTION_EXISTS.error("convention '" + w.slug() + "' already exists (svc "
                    + "conventions edit changes it)", Map.of("slug", w.slug()));
        }
        prepared.ifPresent(p -> engine.indexed(caller.tenantId(), SURFACE, id));
        return show(caller.tenantId(), w.slug());
    }

    /** Changes the fields given; a write that changes nothing answers the convention as it is (no new version). */
    public Convention edit(Caller caller, String slug, Write w) {
        Convention before = show(caller.tenantId(), slug);
        if (w.slug() != null && !w.slug().equals(slug)) {
            throw invalid("slug", "a convention cannot be renamed; create a new one and delete this one");
        }
        if (w.title() == null && w.kind() == null && w.priority() == null && w.body() == null) {
            throw invalid("body", "nothing to change: give title, kind, priority or body");
        }
        String title = w.title() == null ? before.title() : title(w.title());
        String kind = w.kind() == null ? before.kind() : kind(w.kind());
        int priority = w.priority() == null ? before.priority() : priority(w.priority());
        String body = w.body() == null ? before.body() : body(w.body());
        if (w.expectedVersion() != null && w.expectedVersion() != before.version()) {
            throw conflict(slug, w.expectedVersion(), before.version());
        }
        if (title.equals(before.title()) && kind.equals(before.kind()) && priority == before.priority()
                && body.equals(before.body())) {
            return before;
        }
        Optional<RetrievalEngine.Prepared> prepared = searcher.prepare(slug, title, kind, body);
        int next = before.version() + 1;
        boolean updated = store.inTransaction(c -> {
            // the version check makes two concurrent edits of one version one success and one conflict
            if (!ConventionStore.update(c, before.id(), before.version(), next, title, kind, priority, body,
                    caller.sub())) {
                return false;
            }
            ConventionStore.addVersion(c, before.id(), next, title, kind, priority, body, caller.sub());
            // the index follows the row in the same transaction: never rows of an operational one, never none
            // of a searchable one, whatever edits run beside this one
            if (prepared.isPresent()) {
                engine.indexIn(c, caller.tenantId(), SURFACE, before.id(), prepared.get());
            } else {
                engine.unindexIn(c, SURFACE, before.id());
            }
            return true;
        });
        if (!updated) {
            throw conflict(slug, before.version(), show(caller.tenantId(), slug).version());
        }
        engine.indexed(caller.tenantId(), SURFACE, before.id());
        return show(caller.tenantId(), slug);
    }

    /** Deletes the convention and its versions; the governance audit trail keeps every write. */
    public void delete(Caller caller, String slug) {
        Convention c = show(caller.tenantId(), slug);
        store.inTransaction(tx -> {
            ConventionStore.delete(tx, c.id());
            engine.unindexIn(tx, SURFACE, c.id()); // always: a concurrent edit may have made it searchable
            return null;
        });
        engine.indexed(caller.tenantId(), SURFACE, c.id());
    }

    public Convention show(UUID tenant, String slug) {
        return store.find(tenant, slug)
                .orElseThrow(() -> ConventionErrors.CONVENTION_NOT_FOUND.error("no convention '" + slug + "' in this "
                        + "tenant (svc conventions list shows them)", Map.of("slug", String.valueOf(slug))));
    }

    /** Highest priority first, then by slug. */
    public List<Summary> list(UUID tenant, Optional<String> kind, int limit, int offset) {
        Paging page = PAGE.checked(limit, offset);
        kind.ifPresent(ConventionChecks::kind);
        return store.list(tenant, kind, page.limit(), page.offset()).stream()
                .map(c -> new Summary(c.slug(), c.title(), c.kind(), c.priority(), c.version(), c.updatedAt(),
                        c.updatedBy()))
                .toList();
    }

    /** The newest {@code limit} versions, newest first, each with its changes against the version before. */
    public List<ConventionVersion> history(UUID tenant, String slug, int limit) {
        if (limit < 1 || limit > PAGE.max()) {
            throw CommonErrors.INVALID_LIMIT.error("limit must be 1.." + PAGE.max(), Map.of("field", "limit"));
        }
        Convention c = show(tenant, slug);
        return ConventionHistory.of(slug, store.versions(c.id(), limit + 1), limit);
    }

    /** A search an operator or agent makes over workflow and reference conventions, recorded for usage. */
    public List<Hit> search(Caller caller, SearchLog.Transport via, String query, Optional<String> kind, int limit) {
        return engine.searches().record(caller, SearchLog.Surface.CONVENTIONS, via, query,
                () -> search(caller.tenantId(), query, kind, limit), List::size);
    }

    /** A search that is not recorded (the retrieval eval's own). */
    public List<Hit> search(UUID tenant, String query, Optional<String> kind, int limit) {
        return searcher.search(tenant, query, kind, limit);
    }

    /** The workflow and reference conventions of a tenant, oldest first, at most {@code max} (the eval's corpus). */
    public List<Convention> searchable(UUID tenant, int max) {
        return store.searchable(tenant, max);
    }

    /**
     * The tenant's operational conventions packed for an agent's instructions within the
     * {@code conventions.mcp-token-budget} (see {@link ConventionPacker}); what did not fit is logged in one line.
     */
    public String instructions(UUID tenant) {
        return ConventionPacker.instructions(store, tenant, tokenBudget);
    }
}
