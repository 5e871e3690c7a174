package dev.backplane.kernel.conventions;

import static dev.backplane.kernel.conventions.ConventionChecks.invalid;

import dev.backplane.kernel.conventions.Conventions.Hit;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.retrieval.Candidates;
import dev.backplane.kernel.retrieval.RetrievalEngine;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The search over a tenant's workflow and reference conventions on the hybrid retrieval engine: what the index reads
 * of a convention, which conventions a kind filter admits, and the excerpt a hit shows instead of the body.
 */
final class ConventionSearch {

    private final ConventionStore store;
    private final RetrievalEngine engine;

    ConventionSearch(ConventionStore store, RetrievalEngine engine) {
        engine.entryTexts(Conventions.SURFACE, (c, ids) -> ConventionStore.indexTexts(c, ids));
        this.store = store;
        this.engine = engine;
    }

    /** What a convention of {@code kind} adds to the index: nothing for an operational one (agents get those whole). */
    Optional<RetrievalEngine.Prepared> prepare(String slug, String title, String kind, String body) {
        return Conventions.KINDS.indexOf(kind) > 0 ? Optional.of(engine.prepare(indexText(slug, title, body)))
                : Optional.empty();
    }

    /** Workflow and reference conventions matching {@code query}, best first, each with an excerpt. */
    List<Hit> search(UUID tenant, String query, Optional<String> kind, int limit) {
        RetrievalEngine.requireQuery(query);
        if (limit < 1 || limit > Conventions.SEARCH_MAX) {
            throw CommonErrors.INVALID_LIMIT.error("limit must be 1.." + Conventions.SEARCH_MAX, Map.of("field", "limit"));
        }
        if (kind.isPresent() && !List.of(Convention.WORKFLOW, Convention.REFERENCE).contains(kind.get())) {
            throw invalid("kind", "search covers workflow and reference conventions; kind must be one of those "
                    + "(operational ones reach agents in their instructions)");
        }
        Candidates candidates = kind.<Candidates>map(k -> Candidates.only(store.idsOfKind(tenant, k)))
                .orElse(Candidates.all());
        if (candidates instanceof Candidates.Only only && only.ids().isEmpty()) {
            return List.of();
        }
        List<RetrievalEngine.Hit> hits = engine.search(tenant, Conventions.SURFACE, query, limit, RetrievalEngine.Mode.HYBRID,
                candidates);
        Map<UUID, Convention> byId = new LinkedHashMap<>();
        store.searchableAmong(tenant, hits.stream().map(RetrievalEngine.Hit::entryId).toArray(UUID[]::new))
                .forEach(c -> byId.put(c.id(), c));
        return hits.stream().filter(h -> byId.containsKey(h.entryId())).map(h -> {
            Convention c = byId.get(h.entryId());
            return new Hit(c.slug(), c.title(), c.kind(), c.priority(), snippet(c.body()),
                    Math.round(h.score() * 1e6) / 1e6);
        }).toList();
    }

    /** What the search index reads: title, the slug's words and the body. */
    static String indexText(String slug, String title, String body) {
        return title + "\n" + slug.replace('-', ' ') + "\n" + body;
    }

    /** A search hit's excerpt: the body on one line, at most 200 characters. */
    static String snippet(String body) {
        String flat = body.replaceAll("\\s+", " ").strip();
        return flat.length() <= 200 ? flat : flat.substring(0, 197) + "...";
    }
}
