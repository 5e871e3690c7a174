package dev.backplane.kernel.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.backplane.kernel.retrieval.Fusion.Fused;
import dev.backplane.kernel.retrieval.RetrievalEngine.Mode;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Weighted reciprocal rank fusion: ranks, weights, depth, ties and the limit. */
class FusionTest {

    private static final Fusion F = new Fusion(0.5, 1.0, 10, 3, -1);

    private static double score(List<Fused<String>> hits, String item) {
        return hits.stream().filter(h -> h.item().equals(item)).findFirst().orElseThrow().score();
    }

    @Test
    void anItemScoresItsWeightOverKPlusRankOnEachSide() {
        List<Fused<String>> hits = F.fuse(List.of("a", "b"), List.of("b", "c"), Mode.HYBRID, 10,
                Comparator.naturalOrder());
        assertThat(score(hits, "a")).isCloseTo(0.5 / 11, within(1e-12));
        assertThat(score(hits, "b")).as("in both rankings: summed").isCloseTo(0.5 / 12 + 1.0 / 11, within(1e-12));
        assertThat(score(hits, "c")).isCloseTo(1.0 / 12, within(1e-12));
        assertThat(hits).extracting(Fused::item).containsExactly("b", "c", "a");
    }

    @Test
    void aLexicalOnlySearchTakesItsRankingAtWeightOne() {
        List<Fused<String>> hits = F.fuse(List.of("a"), List.of(), Mode.LEXICAL, 10, Comparator.naturalOrder());
        assertThat(hits).singleElement().satisfies(h -> assertThat(h.score()).isCloseTo(1.0 / 11, within(1e-12)));
    }

    @Test
    void onlyTheFirstDepthOfEachRankingCounts() {
        List<Fused<String>> hits = F.fuse(List.of("a", "b", "c", "d"), List.of(), Mode.HYBRID, 10,
                Comparator.naturalOrder());
        assertThat(hits).extracting(Fused::item).containsExactly("a", "b", "c");
    }

    @Test
    void tiesGoByTheComparatorAndTheLimitCuts() {
        // x first lexically and second densely, y the other way round: equal weights make them equal
        Fusion even = new Fusion(1.0, 1.0, 60, 10, -1);
        List<Fused<String>> hits = even.fuse(List.of("y", "x", "z"), List.of("x", "y"), Mode.HYBRID, 2,
                Comparator.naturalOrder());
        assertThat(hits).extracting(Fused::item).containsExactly("x", "y");
        assertThat(hits.get(0).score()).isEqualTo(hits.get(1).score());
    }

    @Test
    void operationSearchDropsDenseStrangers() {
        assertThat(Fusion.OPERATIONS.minCosine()).isPositive();
    }
}
