package dev.backplane.kernel.kb;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.retrieval.RetrievalEngine;
import dev.backplane.kernel.retrieval.SearchLog;
import dev.backplane.kernel.util.Digests;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The knowledge base: durable team knowledge per tenant, slug as natural key. Re-adding a slug
 * updates in place; an unchanged body (same hash) only bumps updated_at — no re-embedding. Search is
 * the hybrid retrieval engine; hits carry a snippet, never the full body.
 */
public final class KbService {

    static final String SURFACE = "kb";
    static final int MAX_BODY = 256 * 1024;
    static final int LIST_MAX = 500;
    private static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9._-]{0,127}");

    /** A kb entry. */
    public record Entry(UUID id, String slug, String body, Map<String, Object> metadata, Instant createdAt,
                        Instant updatedAt) {
    }

    /** A search hit: natural key, snippet, score, metadata — never the full body. */
    public record Hit(String slug, String snippet, double score, Map<String, Object> metadata) {
    }

    /** What an add did. */
    public record Added(Entry entry, String outcome) {
    }

    /**
     * A search's hits, and whether its dense side was left out: on a fresh replica a large kb's vectors are read
     * in the background and its first searches are ranked lexically meanwhile (REST says so as
     * {@code dense_warming}).
     */
    public record Result(List<Hit> hits, boolean denseWarming) {

        /** The answer's body: {@code hits}, and {@code dense_warming: true} only when the dense side was left out. */
        public Map<String, Object> body() {
            return denseWarming ? Map.of("hits", hits, "dense_warming", true) : Map.of("hits", hits);
        }
    }

    private final KbStore store;
    private final RetrievalEngine engine;
    private final KbSearch search;

    public KbService(Jdbc jdbc, RetrievalEngine engine) {
        this.store = new KbStore(jdbc);
        this.engine = engine;
        this.search = new KbSearch(store, engine);
        engine.entryTexts(SURFACE, (c, ids) -> KbStore.indexTexts(c, ids, RetrievalEngine::entryText));
    }

    /** Adds or updates an entry (tenant_admin; the route checked the role). */
    public Added add(UUID tenant, String slug, String body, Map<String, Object> metadata, String actor) {
        validate(slug, body);
        Map<String, Object> meta = metadata == null ? Map.of() : metadata;
        String hash = Digests.sha256Hex(body);
        Optional<Entry> before = store.find(tenant, slug);
        // an entry without its retrieval rows (stored by an older kernel that died between the two writes)
        // is re-indexed instead of being reported unchanged forever
        boolean indexed = before.isPresent() && engine.isIndexed(SURFACE, before.get().id());
        if (indexed && outcome(before, hash, meta).equals("unchanged")) {
            store.touch(tenant, slug, actor);
            return new Added(store.find(tenant, slug).orElseThrow(), "unchanged");
        }
        boolean sameBody = indexed && Digests.sha256Hex(before.get().body()).equals(hash);
        UUID id = before.map(Entry::id).orElseGet(UUID::randomUUID);
        // embeddings first (slow, no transaction open), then the entry and its index in one transaction
        Optional<RetrievalEngine.Prepared> prepared = sameBody ? Optional.empty()
                : Optional.of(engine.prepare(RetrievalEngine.entryText(slug, body)));
        store.inTransaction(c -> {
            KbStore.upsert(c, id, tenant, slug, body, hash, meta, actor);
            if (prepared.isPresent()) {
                engine.indexIn(c, tenant, SURFACE, id, prepared.get());
            }
            return null;
        });
        prepared.ifPresent(p -> engine.indexed(tenant, SURFACE, id));
        return new Added(store.find(tenant, slug).orElseThrow(), before.isEmpty() ? "created" : "updated");
    }

    /** What {@link #add} would do — created, updated or unchanged — without writing (a dry run). */
    public String outcomeOf(UUID tenant, String slug, String body, Map<String, Object> metadata) {
        validate(slug, body);
        return outcome(store.find(tenant, slug), Digests.sha256Hex(body), metadata == null ? Map.of() : metadata);
    }

    /** What re-adding does: a new slug is created; the same body and metadata are unchanged; anything else updated. */
    static String outcome(Optional<Entry> before, String hash, Map<String, Object> meta) {
        if (before.isEmpty()) {
            return "created";
        }
        return Digests.sha256Hex(before.get().body()).equals(hash) && before.get().metadata().equals(meta) ? "unchanged"
                : "updated";
    }

    /** Whether {@code slug} is a valid kb slug (1-128 lower-case letters, digits, '.', '_', '-'). */
    public static boolean validSlug(String slug) {
        return slug != null && SLUG.matcher(slug).matches();
    }

    static void validate(String slug, String body) {
        if (!validSlug(slug)) {
            throw CommonErrors.INVALID_SLUG.error("slug must be 1-128 lower-case letters, digits, '.', '_' "
                    + "or '-', starting with a letter or digit", Map.of("field", "slug"));
        }
        if (body == null || body.isBlank()) {
            throw CommonErrors.INVALID_BODY.error("body is empty", Map.of("field", "body"));
        }
        if (body.getBytes(StandardCharsets.UTF_8).length > MAX_BODY) {
            throw CommonErrors.INVALID_BODY.error("body exceeds " + MAX_BODY + " bytes", Map.of("field", "body"));
        }
    }

    public Entry show(UUID tenant, String slug) {
        return store.find(tenant, slug).orElseThrow(() -> KbErrors.KB_ENTRY_NOT_FOUND.error("no kb entry '" + slug
                + "' in this tenant"));
    }

    public List<Entry> list(UUID tenant, Optional<String> filter, int limit, int offset) {
        if (limit < 1 || limit > LIST_MAX) {
            throw CommonErrors.INVALID_LIMIT.error("limit must be 1.." + LIST_MAX, Map.of("field", "limit"));
        }
        if (offset < 0) {
            throw CommonErrors.INVALID_OFFSET.error("offset must be 0 or more", Map.of("field", "offset"));
        }
        return store.list(tenant, filter, limit, offset);
    }

    /** The tenant's entries by slug, at most {@code max} (the retrieval eval's corpus). */
    public List<Entry> corpus(UUID tenant, int max) {
        return store.corpus(tenant, max);
    }

    public void delete(UUID tenant, String slug) {
        Entry e = show(tenant, slug);
        store.delete(tenant, e.id());
        engine.unindex(tenant, SURFACE, e.id());
    }

    /** A search an operator or agent makes, recorded for {@code svc retrieval usage} (without its text). */
    public List<Hit> search(Caller caller, SearchLog.Transport via, String query, int limit, Map<String, Object> filters) {
        return result(caller, via, query, limit, filters).hits();
    }

    /** As {@link #search(Caller, SearchLog.Transport, String, int, Map)}, saying whether the dense side was left out. */
    public Result result(Caller caller, SearchLog.Transport via, String query, int limit, Map<String, Object> filters) {
        return engine.searches().record(caller, SearchLog.Surface.KB, via, query,
                () -> search.result(caller.tenantId(), query, limit, filters, RetrievalEngine.Mode.HYBRID),
                r -> r.hits().size());
    }

    /** A search that is not recorded (the retrieval eval's own). */
    public List<Hit> search(UUID tenant, String query, int limit, Map<String, Object> filters) {
        return search(tenant, query, limit, filters, RetrievalEngine.Mode.HYBRID);
    }

    public List<Hit> search(UUID tenant, String query, int limit, Map<String, Object> filters, RetrievalEngine.Mode mode) {
        return search.result(tenant, query, limit, filters, mode).hits();
    }
}
