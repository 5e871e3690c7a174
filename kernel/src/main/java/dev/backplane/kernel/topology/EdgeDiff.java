package dev.backplane.kernel.topology;

import dev.backplane.kernel.topology.TopologyHistory.DiffEntry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * The rules of a diff between the edges at two instants, compared by edge id: an edge only after is
 * added, only before is removed, in both it is changed when its note, evidence, conflict flag or
 * staleness differ and unchanged otherwise. Counts every status, lists at most {@link
 * TopologyHistory#DIFF_MAX} entries (and says it truncated), and leaves unchanged ones out when asked for
 * changes only.
 */
final class EdgeDiff {

    private final boolean changedOnly;
    private final List<DiffEntry> entries = new ArrayList<>();
    private final Map<String, Integer> counts = new LinkedHashMap<>(Map.of("added", 0, "removed", 0, "changed", 0,
            "unchanged", 0));

    private EdgeDiff(boolean changedOnly) {
        this.changedOnly = changedOnly;
    }

    /** Compares the versions valid before and after (by edge id) of the edges that have a version in between. */
    static EdgeDiff of(Map<UUID, EdgeView> before, Map<UUID, EdgeView> after, boolean changedOnly) {
        EdgeDiff d = new EdgeDiff(changedOnly);
        for (var e : after.entrySet()) {
            EdgeView was = before.get(e.getKey());
            String status = was == null ? "added" : same(was, e.getValue()) ? "unchanged" : "changed";
            d.counts.merge(status, 1, Integer::sum);
            if (!(changedOnly && status.equals("unchanged"))) {
                d.entries.add(new DiffEntry(status, was, e.getValue()));
            }
        }
        for (var e : before.entrySet()) {
            if (!after.containsKey(e.getKey())) {
                d.counts.merge("removed", 1, Integer::sum);
                d.entries.add(new DiffEntry("removed", e.getValue(), null));
            }
        }
        return d;
    }

    /** Whether two versions of an edge show the same content: note, evidence URL, conflict flag and staleness. */
    static boolean same(EdgeView a, EdgeView b) {
        return Objects.equals(a.note(), b.note()) && Objects.equals(a.evidenceUrl(), b.evidenceUrl())
                && a.conflict() == b.conflict() && a.stale() == b.stale();
    }

    /**
     * Counts the {@code count} edges that are one version valid at both instants and answers how many of them
     * to list: none when only changes are asked for or the list is already past its cap, else enough to see it
     * pass the cap.
     */
    int untouched(long count) {
        counts.merge("unchanged", (int) count, Integer::sum);
        return !changedOnly && count > 0 && entries.size() <= TopologyHistory.DIFF_MAX
                ? TopologyHistory.DIFF_MAX + 1 - entries.size() : 0;
    }

    /** Lists edges valid unchanged at both instants. */
    void unchanged(List<EdgeView> views) {
        views.forEach(v -> entries.add(new DiffEntry("unchanged", v, v)));
    }

    Map<String, Object> answer(Instant t1, Instant t2) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("t1", t1);
        out.put("t2", t2);
        out.put("counts", counts);
        out.put("edges", entries.subList(0, Math.min(entries.size(), TopologyHistory.DIFF_MAX)));
        out.put("truncated", entries.size() > TopologyHistory.DIFF_MAX);
        return out;
    }
}
