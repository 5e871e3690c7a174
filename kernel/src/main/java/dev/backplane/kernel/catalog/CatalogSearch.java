package dev.backplane.kernel.catalog;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.backplane.kernel.catalog.CatalogViews.SearchHit;
import dev.backplane.kernel.catalog.CatalogViews.SearchResult;
import dev.backplane.kernel.plugins.LoadedConnector;
import dev.backplane.kernel.retrieval.RetrievalEngine;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Operation search within one connector, as the tenant sees its operations (custom descriptions searched, overrides
 * shown), over a search index per loaded connector that is built once and prepares its vectors in the background.
 */
final class CatalogSearch {

    /** How often {@link #prepare} reports progress. */
    private static final long PROGRESS_MILLIS = 250;

    private final ConnectorRegistry registry;
    private final ReviewStore store;
    private final RetrievalEngine retrieval;
    private final long firstWaitMillis;
    /** Search indexes per loaded connector, by identity (an ingested connector is replaced whole on re-ingest). */
    private final Cache<LoadedConnector, OperationIndex> indexes = Caffeine.newBuilder().weakKeys().build();

    CatalogSearch(ConnectorRegistry registry, ReviewStore store, RetrievalEngine retrieval, long firstWaitMillis) {
        this.registry = registry;
        this.store = store;
        this.retrieval = retrieval;
        this.firstWaitMillis = firstWaitMillis;
    }

    /** Whether the dense side of a connector's operation search is in (it is prepared in the background). */
    boolean vectorsReady(UUID tenant, String connectorId) {
        return index(registry.require(tenant, connectorId)).denseReady();
    }

    /** Operation search on the hybrid engine; {@code mode} is for measuring one side alone. */
    SearchResult search(UUID tenant, String connectorId, String query, Optional<String> group, int limit,
                        RetrievalEngine.Mode mode) {
        LoadedConnector c = registry.require(tenant, connectorId);
        RetrievalEngine.requireQuery(query);
        int clamped = Math.max(1, Math.min(CatalogService.SEARCH_LIMIT_MAX, limit));
        Map<String, ReviewStore.OpOverride> overrides = store.overrides(tenant, connectorId);
        Map<String, String> custom = new HashMap<>();
        overrides.forEach((id, o) -> o.customDescription().ifPresent(d -> custom.put(id, d)));
        OperationIndex index = index(c);
        OperationIndex.Ranked ranked = index.search(retrieval, tenant, query, group, clamped, custom, mode);
        List<SearchHit> hits = ranked.hits().stream().map(h -> {
            OperationView v = OperationView.of(h.op(), overrides.get(h.op().opId()));
            return new SearchHit(v.opId(), v.safetyLevel(), v.requiresApproval(), v.description(), v.groupKey(),
                    v.isEnabled(), Math.round(h.score() * 1e6) / 1e6);
        }).toList();
        return new SearchResult(connectorId, query, group, clamped, hits,
                ranked.ranking().name().toLowerCase(java.util.Locale.ROOT), index.denseReady());
    }

    /**
     * Computes (or reads back) a connector's search vectors now and waits for them — the ingest job's last stage —
     * reporting {@code (prepared, total)} as they come in; the index it builds is the one searches then use, so
     * nothing is embedded twice. Whether they are in: when not (the model failed), searches stay lexical and the
     * first search tries again.
     */
    boolean prepare(LoadedConnector c, java.util.function.BiConsumer<Integer, Integer> progress) {
        OperationIndex index = index(c);
        progress.accept(index.densePrepared(), index.size());
        while (!index.awaitDense(PROGRESS_MILLIS)) {
            if (index.denseFailed() || Thread.currentThread().isInterrupted()) { // the kernel is stopping
                return false;
            }
            progress.accept(index.densePrepared(), index.size());
        }
        progress.accept(index.size(), index.size());
        return true;
    }

    /** The connector's search index; one whose vectors could not be prepared is made anew (and retries). */
    private OperationIndex index(LoadedConnector c) {
        OperationIndex index = indexes.get(c, x -> new OperationIndex(x, retrieval, firstWaitMillis));
        if (index.denseFailed()) {
            indexes.asMap().remove(c, index);
            index = indexes.get(c, x -> new OperationIndex(x, retrieval, firstWaitMillis));
        }
        return index;
    }
}
