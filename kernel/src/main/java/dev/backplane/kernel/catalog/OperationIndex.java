package dev.backplane.kernel.catalog;

import dev.backplane.kernel.plugins.LoadedConnector;
import dev.backplane.kernel.retrieval.DenseSet;
import dev.backplane.kernel.retrieval.Fusion;
import dev.backplane.kernel.retrieval.Fusion.Fused;
import dev.backplane.kernel.retrieval.RetrievalEngine;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationGroup;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Operation search over one loaded connector on the hybrid retrieval engine: the catalog's own lexical
 * index ({@link OperationSearch}) fused with the operations' embeddings (one text per operation: its
 * name's words, its group and its description). The embeddings are read from PostgreSQL or computed in
 * the background when the index is made — by the ingest job, as its last stage, for an ingested connector, or
 * by the first search (a plugin connector, a restart, a replica that did not ingest it); a search in the
 * first moments waits for them briefly, later ones rank lexically, and say so, until they are in.
 */
final class OperationIndex {

    /** How long searches of a new index wait for its vectors before ranking lexically, by default. */
    static final long FIRST_WAIT_MILLIS = 3_000;

    private final OperationSearch lexical;
    private final List<OperationDescriptor> operations;
    private final DenseSet dense;
    private final long waitUntil;

    /** @param firstWaitMillis how long searches of this new index wait for its vectors before ranking lexically */
    OperationIndex(LoadedConnector connector, RetrievalEngine engine, long firstWaitMillis) {
        this.lexical = new OperationSearch(connector);
        this.operations = lexical.operations();
        Map<String, OperationGroup> groups = new HashMap<>();
        connector.catalog().groups().forEach(g -> groups.put(g.groupKey(), g));
        this.dense = engine.denseSet("operations of " + connector.connectorId(),
                operations.stream().map(op -> text(op, groups.get(op.groupKey()))).toList());
        this.waitUntil = System.currentTimeMillis() + firstWaitMillis;
    }

    /** What is embedded for an operation: its name as words, its group, its description. */
    static String text(OperationDescriptor op, OperationGroup group) {
        String name = op.opId().substring(op.opId().lastIndexOf('.') + 1).replace('_', ' ')
                .replaceAll("([a-z0-9])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
        String groupName = group == null ? op.groupKey() : group.displayName();
        return name + " (" + groupName + "): " + (op.description() == null ? "" : op.description());
    }

    boolean denseReady() {
        return dense.ready();
    }

    boolean denseFailed() {
        return dense.failed();
    }

    /** Items of the set that have their vector so far, of {@link #size()}. */
    int densePrepared() {
        return dense.prepared();
    }

    int size() {
        return dense.size();
    }

    /** Waits up to {@code millis} for the vectors; whether they are in. */
    boolean awaitDense(long millis) {
        return dense.await(millis);
    }

    record Hit(OperationDescriptor op, double score) {
    }

    /** A search's hits and how they were ranked: {@code LEXICAL} when the vectors were not in (or not asked for). */
    record Ranked(List<Hit> hits, RetrievalEngine.Mode ranking) {
    }

    Ranked search(RetrievalEngine engine, java.util.UUID tenant, String query, Optional<String> group, int limit,
                  Map<String, String> customDescriptions, RetrievalEngine.Mode mode) {
        long wait = waitUntil - System.currentTimeMillis();
        if (wait > 0 && mode != RetrievalEngine.Mode.LEXICAL && !dense.ready()) {
            dense.await(wait);
        }
        // decided once, here, so that the answer says how it was ranked even if the vectors arrive meanwhile
        RetrievalEngine.Mode ranking = dense.ready() ? mode : RetrievalEngine.Mode.LEXICAL;
        // fused deeper than asked, then each hit weighed by the query's intent (its verb, whether it destroys)
        OperationWords.Intent intent = OperationSearch.intent(query);
        List<Hit> hits = new ArrayList<>();
        for (Fused<Integer> f : engine.search(tenant, dense, query, Math.max(limit, Fusion.OPERATIONS.depth()),
                ranking, Fusion.OPERATIONS, (q, depth) -> lexical.search(q, group, depth, customDescriptions).stream()
                        .map(OperationSearch.Hit::item).toList(),
                i -> group.isEmpty() || group.get().equals(operations.get(i).groupKey()))) {
            double factor = ranking != RetrievalEngine.Mode.HYBRID ? 1.0
                    : lexical.adjustment(f.item(), intent, VERB_MATCH, DESTRUCTIVE);
            hits.add(new Hit(operations.get(f.item()), f.score() * factor));
        }
        // stable: equal scores keep the fusion's order
        hits.sort(Comparator.comparingDouble(Hit::score).reversed());
        return new Ranked(hits.size() > limit ? List.copyOf(hits.subList(0, limit)) : hits, ranking);
    }

    /**
     * What a fused hit's score is multiplied by when its action is the query's verb, and when it destroys and the
     * query does not ask to (the lexical side has its own, {@link OperationSearch#VERB_MATCH}): reciprocal-rank
     * scores lie close together, so these are small.
     */
    static final double VERB_MATCH = 1.1;
    static final double DESTRUCTIVE = 0.8;
}
