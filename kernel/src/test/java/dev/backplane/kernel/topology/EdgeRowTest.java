package dev.backplane.kernel.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * An edge version's rules without a database: a note or evidence URL written again is kept when absent and
 * cleared when empty, a successor keeps the edge's identity and ends, and a removal marker holds at no instant.
 */
class EdgeRowTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Instant T1 = Instant.parse("2026-01-02T00:00:00Z");

    @Test
    void absentKeepsEmptyClearsGivenReplaces() {
        assertThat(EdgeRow.kept(null, "old")).isEqualTo("old");
        assertThat(EdgeRow.kept("", "old")).isNull();
        assertThat(EdgeRow.kept("new", "old")).isEqualTo("new");
        assertThat(EdgeRow.kept(null, null)).isNull();
    }

    @Test
    void successorsKeepTheEdgeAndARemovalHoldsAtNoInstant() {
        EdgeWrites.Want w = new EdgeWrites.Want(new TenantGraph.NodeRef(UUID.randomUUID(), "service", "api"), "depends-on",
                new TenantGraph.NodeRef(UUID.randomUUID(), "datastore", "db"), null, null);
        EdgeRow first = EdgeRow.created(w, "curated", "", "n", "https://e", "alice", T0);
        assertThat(first).extracting(EdgeRow::change, EdgeRow::conflict, EdgeRow::stale, EdgeRow::validTo)
                .containsExactly("created", false, false, null);
        EdgeRow next = first.next("m", null, true, false, "updated", "bob", T1);
        assertThat(next.edgeId()).isEqualTo(first.edgeId());
        assertThat(next).extracting(EdgeRow::from, EdgeRow::to, EdgeRow::note, EdgeRow::changedBy, EdgeRow::validFrom)
                .containsExactly(first.from(), first.to(), "m", "bob", T1);
        EdgeRow gone = next.removal("carol", T1);
        assertThat(gone).extracting(EdgeRow::edgeId, EdgeRow::note, EdgeRow::conflict, EdgeRow::change,
                EdgeRow::changedBy, EdgeRow::validFrom, EdgeRow::validTo)
                .containsExactly(first.edgeId(), "m", true, "removed", "carol", T1, T1);
        assertThat(next.sameContent("m", null, false)).isTrue();
        assertThat(next.sameContent("m", null, true)).isFalse();
    }
}
