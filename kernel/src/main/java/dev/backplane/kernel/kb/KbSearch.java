package dev.backplane.kernel.kb;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.kb.KbService.Entry;
import dev.backplane.kernel.kb.KbService.Hit;
import dev.backplane.kernel.kb.KbService.Result;
import dev.backplane.kernel.retrieval.Candidates;
import dev.backplane.kernel.retrieval.RetrievalEngine;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Ranking the kb for a query: the whole kb through the retrieval engine, or narrowed by a metadata filter;
 * hits carry a snippet, never the full body.
 */
final class KbSearch {

    static final int SEARCH_MAX = 50;
    /** How deep a filtered search ranks the whole kb before keeping the entries that match the filter. */
    static final int POST_FILTER_DEPTH = 100;

    private final KbStore store;
    private final RetrievalEngine engine;

    KbSearch(KbStore store, RetrievalEngine engine) {
        this.store = store;
        this.engine = engine;
    }

    Result result(UUID tenant, String query, int limit, Map<String, Object> filters, RetrievalEngine.Mode mode) {
        RetrievalEngine.requireQuery(query);
        if (limit < 1 || limit > SEARCH_MAX) {
            throw CommonErrors.INVALID_LIMIT.error("limit must be 1.." + SEARCH_MAX, Map.of("field", "limit"));
        }
        Map<String, Object> f = filters == null ? Map.of() : filters;
        RetrievalEngine.Ranking ranking = f.isEmpty() ? rank(tenant, query, limit, mode, Candidates.all())
                : filtered(tenant, query, limit, f, mode);
        if (ranking.hits().isEmpty()) {
            return new Result(List.of(), ranking.denseWarming());
        }
        Map<UUID, Entry> byId = new LinkedHashMap<>();
        store.among(tenant, ids(ranking.hits())).forEach(e -> byId.put(e.id(), e));
        return new Result(ranking.hits().stream().filter(h -> byId.containsKey(h.entryId())).map(h -> {
            Entry e = byId.get(h.entryId());
            return new Hit(e.slug(), snippet(e.body()), Math.round(h.score() * 1e6) / 1e6, e.metadata());
        }).toList(), ranking.denseWarming());
    }

    private RetrievalEngine.Ranking rank(UUID tenant, String query, int limit, RetrievalEngine.Mode mode,
                                         Candidates candidates) {
        return engine.rank(List.of(tenant), KbService.SURFACE, query, limit, mode, candidates);
    }

    /**
     * A search narrowed by metadata. A filter usually keeps a good share of the entries, so the whole
     * kb is ranked and the best matching entries kept — one indexed lookup of at most
     * {@value #POST_FILTER_DEPTH} ids; only when that leaves fewer than {@code limit} (a narrow filter) are
     * the matching entries listed and ranked alone.
     */
    private RetrievalEngine.Ranking filtered(UUID tenant, String query, int limit, Map<String, Object> filter,
                                             RetrievalEngine.Mode mode) {
        RetrievalEngine.Ranking wide = rank(tenant, query, POST_FILTER_DEPTH, mode, Candidates.all());
        Set<UUID> matching = store.matchingAmong(tenant, ids(wide.hits()), filter);
        List<RetrievalEngine.Hit> kept = wide.hits().stream().filter(h -> matching.contains(h.entryId())).toList();
        if (kept.size() >= limit || wide.hits().size() < POST_FILTER_DEPTH) {
            return new RetrievalEngine.Ranking(kept.size() > limit ? kept.subList(0, limit) : kept, wide.denseWarming());
        }
        Set<UUID> allowed = store.matching(tenant, filter);
        return allowed.isEmpty() ? new RetrievalEngine.Ranking(List.of(), wide.denseWarming())
                : rank(tenant, query, limit, mode, Candidates.only(allowed));
    }

    private static UUID[] ids(List<RetrievalEngine.Hit> hits) {
        return hits.stream().map(RetrievalEngine.Hit::entryId).toArray(UUID[]::new);
    }

    /** The body on one line, cut to 240 characters. */
    static String snippet(String body) {
        String flat = body.replaceAll("\\s+", " ").strip();
        return flat.length() <= 240 ? flat : flat.substring(0, 237) + "...";
    }
}
