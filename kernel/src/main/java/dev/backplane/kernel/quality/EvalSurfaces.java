package dev.backplane.kernel.quality;

import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.conventions.Convention;
import dev.backplane.kernel.conventions.Conventions;
import dev.backplane.kernel.kb.KbService;
import dev.backplane.kernel.memory.MemoryService;
import dev.backplane.kernel.plugins.LoadedConnector;
import dev.backplane.plugin.api.OperationDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The surfaces the eval measures: kb, memory and conventions on the hybrid engine, operations on the
 * catalog's search (also hybrid).
 */
final class EvalSurfaces {

    /** At most this many documents per surface go into an eval (the grep baseline reads them all). */
    static final int MAX_DOCS = 5_000;

    private EvalSurfaces() {
    }

    /** kb: curated queries from metadata {@code eval_queries}; otherwise each entry's title finds it. */
    static EvalSurface kb(KbService kb) {
        return new EvalSurface("kb", "hybrid", Optional.empty(), caller -> {
            List<EvalSurface.Doc> docs = new ArrayList<>();
            List<EvalSurface.LabelledQuery> queries = new ArrayList<>();
            for (KbService.Entry e : kb.corpus(caller.tenantId(), MAX_DOCS)) {
                docs.add(new EvalSurface.Doc(e.slug(), "", e.slug().replace('-', ' ') + "\n" + e.body()));
                List<String> curated = QuerySets.curated(e.metadata().get("eval_queries"));
                curated.forEach(q -> queries.add(new EvalSurface.LabelledQuery(q, e.slug(), "", "curated")));
                if (curated.isEmpty()) {
                    QuerySets.title(e.body()).ifPresent(q -> queries.add(new EvalSurface.LabelledQuery(q, e.slug(), "",
                            "derived")));
                }
            }
            return new EvalSurface.Corpus(docs, queries);
        }, (caller, q, k) -> kb.search(caller.tenantId(), q.query(), k, Map.of()).stream().map(KbService.Hit::slug)
                .toList());
    }

    /** memory (what the caller can see): curated queries from tags {@code eval:<query>}; otherwise the first sentence. */
    static EvalSurface memory(MemoryService memory) {
        return new EvalSurface("memory", "hybrid", Optional.of("over the memory entries the caller can see"), caller -> {
            List<EvalSurface.Doc> docs = new ArrayList<>();
            List<EvalSurface.LabelledQuery> queries = new ArrayList<>();
            for (MemoryService.Entry e : memory.visible(caller, MAX_DOCS)) {
                String key = e.scope() + "/" + e.slug();
                docs.add(new EvalSurface.Doc(key, "", e.slug().replace('-', ' ') + "\n" + e.body()));
                List<String> curated = e.metadata().get("tags") instanceof List<?> tags ? tags.stream()
                        .map(String::valueOf).filter(t -> t.startsWith("eval:")).map(t -> t.substring(5).strip())
                        .filter(t -> !t.isEmpty()).toList() : List.of();
                curated.forEach(q -> queries.add(new EvalSurface.LabelledQuery(q, key, "", "curated")));
                if (curated.isEmpty()) {
                    QuerySets.firstSentence(e.body()).ifPresent(q -> queries.add(new EvalSurface.LabelledQuery(q, key, "",
                            "derived")));
                }
            }
            return new EvalSurface.Corpus(docs, queries);
        }, (caller, q, k) -> memory.search(caller, q.query(), Optional.empty(), k).stream()
                .map(h -> h.scope() + "/" + h.slug()).toList());
    }

    /**
     * operations: each operation's description (its first sentence) must find it within its
     * connector, through operation search on the hybrid engine.
     */
    static EvalSurface operations(CatalogService catalog) {
        return new EvalSurface("operations", "hybrid", Optional.of("queries are derived from operation descriptions "
                + "(known-item); while a connector's operation vectors are still being prepared its searches are "
                + "lexical"), caller -> {
            List<EvalSurface.Doc> docs = new ArrayList<>();
            List<EvalSurface.LabelledQuery> queries = new ArrayList<>();
            for (LoadedConnector c : catalog.registry().all(caller.tenantId())) {
                for (OperationDescriptor op : c.catalog().operations()) {
                    String key = c.connectorId() + " " + op.opId();
                    if (docs.size() < MAX_DOCS) {
                        docs.add(new EvalSurface.Doc(key, c.connectorId(), op.opId() + " " + op.groupKey() + " "
                                + op.description()));
                        QuerySets.firstSentence(op.description()).ifPresent(q -> queries.add(
                                new EvalSurface.LabelledQuery(q, key, c.connectorId(), "derived")));
                    }
                }
            }
            return new EvalSurface.Corpus(docs, queries);
        }, (caller, q, k) -> catalog.search(caller.tenantId(), q.partition(), q.query(), Optional.empty(), k).hits()
                .stream().map(h -> q.partition() + " " + h.opId()).toList());
    }

    /**
     * conventions (workflow and reference; operational ones are not searched): each convention's title finds
     * it; a body line {@code eval: <query>} is a curated query instead.
     */
    static EvalSurface conventions(Conventions conventions) {
        return new EvalSurface("conventions", "hybrid", Optional.of("over the workflow and reference conventions"),
                caller -> {
                    List<EvalSurface.Doc> docs = new ArrayList<>();
                    List<EvalSurface.LabelledQuery> queries = new ArrayList<>();
                    for (Convention c : conventions.searchable(caller.tenantId(), MAX_DOCS)) {
                        docs.add(new EvalSurface.Doc(c.slug(), "", c.title() + "\n" + c.slug().replace('-', ' ') + "\n"
                                + c.body()));
                        List<String> curated = c.body().lines().map(String::strip).filter(l -> l.startsWith("eval:"))
                                .map(l -> l.substring(5).strip()).filter(EvalSurfaces::searchable).toList();
                        curated.forEach(q -> queries.add(new EvalSurface.LabelledQuery(q, c.slug(), "", "curated")));
                        if (curated.isEmpty()) {
                            QuerySets.title(c.title()).ifPresent(q -> queries.add(new EvalSurface.LabelledQuery(q,
                                    c.slug(), "", "derived")));
                        }
                    }
                    return new EvalSurface.Corpus(docs, queries);
                }, (caller, q, k) -> conventions.search(caller.tenantId(), q.query(), Optional.empty(), k).stream()
                .map(Conventions.Hit::slug).toList());
    }

    /** A curated query any surface would take; one that it would refuse is left out, not an error of the whole eval. */
    private static boolean searchable(String query) {
        try {
            dev.backplane.kernel.retrieval.RetrievalEngine.requireQuery(query);
            return true;
        } catch (dev.backplane.kernel.errors.DomainException refused) {
            return false;
        }
    }
}
