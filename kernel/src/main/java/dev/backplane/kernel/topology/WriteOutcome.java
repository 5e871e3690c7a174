package dev.backplane.kernel.topology;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * What one topology write did: its counts by change (the answer's {@code result} or {@code plan}), and the
 * nodes and rows now current or gone, as the change to apply to the in-memory graph after the commit.
 */
final class WriteOutcome {

    /** What a write counts; the lower-case name is the key in the counts, in this order. */
    enum Change { CREATED, UPDATED, UNCHANGED, STALE, SEEN_AGAIN, REMOVED, CONFLICTS }

    private final Map<Change, Integer> counted = new EnumMap<>(Change.class);
    final Set<TenantGraph.NodeRef> nodes = new HashSet<>();
    final Map<UUID, EdgeRow> current = new LinkedHashMap<>();
    final List<UUID> gone = new ArrayList<>();
    final List<EdgeRow> written = new ArrayList<>();

    Consumer<TenantGraph> graphChange() {
        return g -> {
            nodes.forEach(g::putNode);
            current.values().forEach(r -> g.putEdge(r.edgeId(), r.from(), r.to(), r.kind(), r.source(), r.stale(), r.conflict()));
            gone.forEach(g::removeEdge);
        };
    }

    int count(Change change) {
        return counted.getOrDefault(change, 0);
    }

    void add(Change change) {
        counted.merge(change, 1, Integer::sum);
    }

    Map<String, Object> counts() {
        Map<String, Object> m = new LinkedHashMap<>();
        for (Change change : Change.values()) {
            m.put(change.name().toLowerCase(Locale.ROOT), count(change));
        }
        return m;
    }
}
