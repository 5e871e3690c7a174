package dev.backplane.kernel.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The single-valued kinds' conflict rule without a database: two different ends that discovery still sees
 * conflict (both flagged), a stale row neither conflicts nor counts as an end, the same end twice (a curated
 * and an auto edge agreeing) is no conflict, and groups are per node and kind.
 */
class ConflictsTest {

    private static final Instant AT = Instant.parse("2026-01-01T00:00:00Z");
    private static final UUID POD = UUID.randomUUID();
    private static final UUID N1 = UUID.randomUUID();
    private static final UUID N2 = UUID.randomUUID();

    private static long versions;

    private static EdgeRow runsOn(UUID from, UUID to, String source, boolean stale) {
        return new EdgeRow(++versions, UUID.randomUUID(), from, "pod", "p", "runs-on", to, "node", "n", source,
                source.equals("auto") ? "t1" : "", null, null, false, stale, "created", "alice", AT, null);
    }

    @Test
    void twoEndsDiscoveryStillSeesConflictBothWays() {
        EdgeRow curated = runsOn(POD, N1, "curated", false);
        EdgeRow auto = runsOn(POD, N2, "auto", false);
        assertThat(Conflicts.decide(List.of(curated, auto))).containsExactly(Map.entry(curated, true),
                Map.entry(auto, true));
    }

    @Test
    void aStaleRowNeitherConflictsNorCountsAsAnEnd() {
        EdgeRow curated = runsOn(POD, N1, "curated", false);
        EdgeRow stale = runsOn(POD, N2, "auto", true);
        assertThat(Conflicts.decide(List.of(curated, stale))).containsExactly(Map.entry(curated, false),
                Map.entry(stale, false));
    }

    @Test
    void theSameEndTwiceIsNoConflict() {
        EdgeRow curated = runsOn(POD, N1, "curated", false);
        EdgeRow auto = runsOn(POD, N1, "auto", false);
        assertThat(Conflicts.decide(List.of(curated, auto)).values()).containsOnly(false);
    }

    @Test
    void groupsArePerNodeAndKeepTheirFirstSeenOrder() {
        UUID other = UUID.randomUUID();
        EdgeRow a = runsOn(POD, N1, "curated", false);
        EdgeRow b = runsOn(other, N1, "curated", false);
        EdgeRow c = runsOn(POD, N2, "auto", false);
        EdgeRow d = runsOn(other, N1, "auto", false);
        assertThat(Conflicts.decide(List.of(a, b, c, d))).containsExactly(Map.entry(a, true), Map.entry(c, true),
                Map.entry(b, false), Map.entry(d, false));
    }
}
