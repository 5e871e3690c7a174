package dev.backplane.kernel.topology;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rule of the single-valued edge kinds ({@link Vocabulary#SINGLE_VALUED}): a node has one end per such
 * kind, so when the current edges leaving a node with that kind name more than one end discovery still
 * sees, each of them that is not stale is flagged as a conflict instead of one overwriting the other.
 *
 * <p>Hand-written, not a JGraphT algorithm: the rule is a count of distinct ends per (node, kind), decided over the
 * rows a write's transaction reads (the in-memory graph may not even be loaded). Strongly connected components do
 * not express it — two conflicting {@code runs-on} edges share a start, not a loop — and the loops JGraphT finds
 * are answered where they mean something, as {@code cycles} of a walk ({@link DependencyLoops}).
 */
final class Conflicts {

    private Conflicts() {
    }

    /**
     * Whether each of these current rows should carry the conflict flag, grouped by (from, kind) in the order
     * the groups first appear: a stale row never conflicts and is no end of its group.
     */
    static Map<EdgeRow, Boolean> decide(List<EdgeRow> rows) {
        Map<List<Object>, List<EdgeRow>> groups = new LinkedHashMap<>();
        rows.forEach(r -> groups.computeIfAbsent(List.of(r.from(), r.kind()), k -> new ArrayList<>()).add(r));
        Map<EdgeRow, Boolean> out = new LinkedHashMap<>();
        for (List<EdgeRow> group : groups.values()) {
            long ends = group.stream().filter(r -> !r.stale()).map(EdgeRow::to).distinct().count();
            group.forEach(r -> out.put(r, !r.stale() && ends > 1));
        }
        return out;
    }
}
