package dev.backplane.kernel.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.backplane.kernel.retrieval.VectorIndex.Scored;
import java.nio.ByteBuffer;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The JVM vector index's slices without a database: which get a graph, how a patch replaces entries, which
 * entries a search may return, and the exact scan's entry score (mean of the first and the best chunk).
 */
class VectorSliceTest {

    private static final UUID A = UUID.fromString("00000000-0000-0000-0000-00000000000a");
    private static final UUID B = UUID.fromString("00000000-0000-0000-0000-00000000000b");
    private static final UUID C = UUID.fromString("00000000-0000-0000-0000-00000000000c");

    /** A vector as {@code array_send} sends a one-dimension float4 array. */
    private static ByteBuffer sent(float... v) {
        ByteBuffer b = ByteBuffer.allocate(20 + 8 * v.length);
        b.putInt(1).putInt(0).putInt(700).putInt(v.length).putInt(1);
        for (float f : v) {
            b.putInt(4).putFloat(f);
        }
        return b.flip();
    }

    /** A: first chunk (1,0), later chunk (0,1); B: one chunk (0.6,0.8); C: only a later chunk (1,0). */
    private static VectorSlice slice() throws SQLException {
        VectorSlice.Builder b = new VectorSlice.Builder();
        b.add(A, sent(0, 1), false);
        b.add(B, sent(0.6f, 0.8f), true);
        b.add(A, sent(1, 0), true);
        b.add(C, sent(1, 0), false);
        return b.build();
    }

    @Test
    void theBuilderKeepsRowsInAnyOrderAndEachEntrysFirstChunk() throws SQLException {
        VectorSlice s = slice();
        assertThat(s.entries()).containsExactly(A, B, C);
        assertThat(s.rowEntry()).containsExactly(0, 1, 0, 2);
        assertThat(s.firstRow()).containsExactly(2, 1, VectorSlice.NO_ROW);
        assertThat(s.vectors()[1]).containsExactly(0.6f, 0.8f);
        assertThat(s.rows()).isEqualTo(4);
        assertThat(s.ann()).isNull();
        assertThat(s.warm()).isTrue();
    }

    @Test
    void aVectorOfAnotherDimensionIsRefused() throws SQLException {
        VectorSlice.Builder b = new VectorSlice.Builder();
        b.add(A, sent(1, 0), true);
        assertThatThrownBy(() -> b.add(B, sent(1, 0, 0), true)).isInstanceOf(SQLException.class)
                .hasMessageContaining("3-dimension vector among 2");
    }

    @Test
    void onlySlicesOfAtLeastTheThresholdGetAGraph() throws SQLException {
        assertThat(VectorSlice.wantsGraph(19_999, JvmVectorIndex.ANN_MIN_CHUNKS)).isFalse();
        assertThat(VectorSlice.wantsGraph(20_000, JvmVectorIndex.ANN_MIN_CHUNKS)).isTrue();
        assertThat(VectorSlice.wantsGraph(4, 5)).isFalse();
        assertThat(VectorSlice.wantsGraph(5, 5)).isTrue();
        VectorSlice s = slice();
        assertThat(s.held(5)).isSameAs(s);
        assertThat(s.held(Integer.MAX_VALUE)).isSameAs(s);
    }

    @Test
    void aPatchReplacesEntriesAndADeletedOneHasNoChunks() throws SQLException {
        VectorSlice s = slice().with(Set.of(A, B), Map.of(A, new float[][] {{0, 1}}));
        assertThat(s.replaced()).containsExactlyInAnyOrder(A, B);
        assertThat(s.changed()).containsOnlyKeys(A);
        VectorSlice again = s.with(Set.of(A), Map.of());
        assertThat(again.changed()).isEmpty();
        assertThat(again.replaced()).containsExactlyInAnyOrder(A, B);
        assertThat(again.bytes()).isLessThan(s.bytes());
        assertThat(s.stale()).isFalse();
    }

    @Test
    void aSearchMayReturnAllowedEntriesButNeverReplacedOnes() throws SQLException {
        VectorSlice s = slice();
        assertThat(VectorScan.allowed(s, Candidates.all())).isNull();
        assertThat(VectorScan.allowed(s, Candidates.except(Set.of(B)))).containsExactly(true, false, true);
        assertThat(VectorScan.allowed(s, Candidates.only(Set.of(A, B)))).containsExactly(true, true, false);
        VectorSlice patched = s.with(Set.of(C), Map.of());
        assertThat(VectorScan.allowed(patched, Candidates.all())).containsExactly(true, true, false);
    }

    @Test
    void theExactScanScoresTheMeanOfTheFirstAndTheBestChunk() throws SQLException {
        List<Scored> hits = VectorScan.nearest(slice(), new float[] {0, 1}, 3, Candidates.all());
        assertThat(hits).extracting(Scored::entryId).containsExactly(B, A, C);
        assertThat(hits.get(0).score()).isCloseTo(0.8, within(1e-6)); // one chunk: first = best
        assertThat(hits.get(1).score()).isCloseTo(0.5, within(1e-6)); // first 0, best 1
        assertThat(hits.get(2).score()).isCloseTo(0.0, within(1e-6)); // no first chunk row: its best alone
        assertThat(VectorScan.nearest(slice(), new float[] {0, 1}, 1, Candidates.except(Set.of(B))))
                .extracting(Scored::entryId).containsExactly(A);
    }

    @Test
    void changedEntriesAreScoredFromTheirCurrentChunks() throws SQLException {
        VectorSlice s = slice().with(Set.of(C, B), Map.of(C, new float[][] {{0, 1}, {1, 0}}));
        List<Scored> hits = VectorScan.nearest(List.of(s), new float[] {0, 1}, 5, Candidates.all());
        assertThat(hits).extracting(Scored::entryId).containsExactly(C, A);
        assertThat(hits.get(0).score()).isCloseTo(1.0, within(1e-6));
    }
}
