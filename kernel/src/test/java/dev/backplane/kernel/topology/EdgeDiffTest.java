package dev.backplane.kernel.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The diff's rules without a database: an edge only after is added, only before removed, in both changed
 * when note, evidence, conflict or staleness differ (and nothing else), the untouched edges counted and
 * listed up to the cap, and only changes when asked for.
 */
class EdgeDiffTest {

    private static final Instant T1 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Instant T2 = Instant.parse("2026-02-01T00:00:00Z");

    private static EdgeView edge(UUID id, String note, String evidence, boolean conflict, boolean stale, String change) {
        return new EdgeView(id, "api", "service", "depends-on", "db", "datastore", "curated", null, note, evidence,
                conflict, stale, change, "alice", T1, null, 1);
    }

    private static Map<UUID, EdgeView> byId(EdgeView... views) {
        Map<UUID, EdgeView> m = new LinkedHashMap<>();
        for (EdgeView v : views) {
            m.put(v.edgeId(), v);
        }
        return m;
    }

    @SuppressWarnings("unchecked")
    private static List<TopologyHistory.DiffEntry> entries(Map<String, Object> answer) {
        return (List<TopologyHistory.DiffEntry>) answer.get("edges");
    }

    @Test
    void anEdgeIsAddedRemovedChangedOrUnchangedByItsId() {
        UUID added = UUID.randomUUID();
        UUID removed = UUID.randomUUID();
        UUID changed = UUID.randomUUID();
        UUID same = UUID.randomUUID();
        EdgeDiff d = EdgeDiff.of(
                byId(edge(removed, null, null, false, false, "created"), edge(changed, "old", null, false, false, "created"),
                        edge(same, "n", "https://e", false, false, "created")),
                byId(edge(added, null, null, false, false, "created"), edge(changed, "new", null, false, false, "updated"),
                        edge(same, "n", "https://e", false, false, "created")), false);
        Map<String, Object> answer = d.answer(T1, T2);
        assertThat(answer.get("counts")).isEqualTo(Map.of("added", 1, "removed", 1, "changed", 1, "unchanged", 1));
        assertThat(entries(answer)).extracting(e -> (e.after() != null ? e.after() : e.before()).edgeId(),
                TopologyHistory.DiffEntry::status).containsExactly(
                tuple(added, "added"), tuple(changed, "changed"),
                tuple(same, "unchanged"), tuple(removed, "removed"));
        TopologyHistory.DiffEntry add = entries(answer).getFirst();
        assertThat(add.before()).isNull();
        assertThat(entries(answer).getLast().after()).isNull();
        assertThat(answer).containsEntry("t1", T1).containsEntry("t2", T2).containsEntry("truncated", false);
    }

    @Test
    void contentIsNoteEvidenceConflictAndStalenessOnly() {
        UUID id = UUID.randomUUID();
        EdgeView base = edge(id, "n", "https://e", false, false, "created");
        assertThat(EdgeDiff.same(base, edge(id, "n", "https://e", false, false, "seen-again")))
                .as("the change that made a version is not content").isTrue();
        assertThat(EdgeDiff.same(base, edge(id, "other", "https://e", false, false, "updated"))).isFalse();
        assertThat(EdgeDiff.same(base, edge(id, null, "https://e", false, false, "updated"))).isFalse();
        assertThat(EdgeDiff.same(base, edge(id, "n", "https://f", false, false, "updated"))).isFalse();
        assertThat(EdgeDiff.same(base, edge(id, "n", "https://e", true, false, "conflict"))).isFalse();
        assertThat(EdgeDiff.same(base, edge(id, "n", "https://e", false, true, "stale"))).isFalse();
    }

    @Test
    void changedOnlyCountsButDoesNotListUnchangedEdges() {
        UUID same = UUID.randomUUID();
        UUID changed = UUID.randomUUID();
        EdgeDiff d = EdgeDiff.of(byId(edge(same, null, null, false, false, "created"),
                        edge(changed, null, null, false, false, "created")),
                byId(edge(same, null, null, false, false, "created"), edge(changed, null, null, false, true, "stale")),
                true);
        assertThat(d.untouched(5)).as("only changes asked for: no untouched edge listed").isZero();
        Map<String, Object> answer = d.answer(T1, T2);
        assertThat(answer.get("counts")).isEqualTo(Map.of("added", 0, "removed", 0, "changed", 1, "unchanged", 6));
        assertThat(entries(answer)).extracting(TopologyHistory.DiffEntry::status).containsExactly("changed");
    }

    @Test
    void untouchedEdgesAreListedUpToOnePastTheCapWhichTruncates() {
        EdgeDiff none = EdgeDiff.of(Map.of(), Map.of(), false);
        assertThat(none.untouched(0)).as("nothing untouched: nothing to list").isZero();
        EdgeDiff d = EdgeDiff.of(Map.of(), byId(edge(UUID.randomUUID(), null, null, false, false, "created")), false);
        int room = d.untouched(20_000);
        assertThat(room).isEqualTo(TopologyHistory.DIFF_MAX);
        d.unchanged(IntStream.range(0, room).mapToObj(i -> edge(UUID.randomUUID(), null, null, false, false, "created"))
                .toList());
        Map<String, Object> answer = d.answer(T1, T2);
        assertThat(entries(answer)).hasSize(TopologyHistory.DIFF_MAX);
        assertThat(answer).containsEntry("truncated", true);
        assertThat(((Map<?, ?>) answer.get("counts")).get("unchanged")).isEqualTo(20_000);
        EdgeDiff full = EdgeDiff.of(Map.of(), byId(IntStream.range(0, TopologyHistory.DIFF_MAX + 1)
                .mapToObj(i -> edge(UUID.randomUUID(), null, null, false, false, "created")).toArray(EdgeView[]::new)),
                false);
        assertThat(full.untouched(3)).as("already past the cap: no untouched edge listed").isZero();
    }
}
