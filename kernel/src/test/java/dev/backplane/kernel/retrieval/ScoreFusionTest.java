package dev.backplane.kernel.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.backplane.kernel.retrieval.RetrievalEngine.Hit;
import dev.backplane.kernel.retrieval.RetrievalEngine.Mode;
import dev.backplane.kernel.retrieval.ScoreFusion.Candidate;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * kb and memory's fusion: lexical scores over the best, dense min-max, combined by the model's dense weight; depth,
 * modes, ties, limit.
 */
class ScoreFusionTest {

    private static final UUID A = UUID.fromString("00000000-0000-0000-0000-00000000000a");
    private static final UUID B = UUID.fromString("00000000-0000-0000-0000-00000000000b");
    private static final UUID C = UUID.fromString("00000000-0000-0000-0000-00000000000c");
    private static final UUID D = UUID.fromString("00000000-0000-0000-0000-00000000000d");

    private static double score(List<Hit> hits, UUID id) {
        return hits.stream().filter(h -> h.entryId().equals(id)).findFirst().orElseThrow().score();
    }

    @Test
    void eachLegIsNormalisedOverItsCandidatesAndWeighted() {
        ScoreFusion f = new ScoreFusion(0.8, 100);
        // BM25 scores and cosines on different scales: BM25 against its best (0 is no match), cosines within their spread
        List<Hit> hits = f.fuse(List.of(new Candidate(A, 12.0), new Candidate(B, 6.0), new Candidate(C, 3.0)),
                List.of(new Candidate(B, 0.71), new Candidate(C, 0.70), new Candidate(D, 0.61)), Mode.HYBRID, 10);
        assertThat(score(hits, A)).as("lexical best only").isCloseTo(0.2, within(1e-9));
        assertThat(score(hits, B)).as("half the best lexically, dense best").isCloseTo(0.2 * 0.5 + 0.8, within(1e-9));
        assertThat(score(hits, C)).as("the last lexical match still counts, dense close to the best")
                .isCloseTo(0.2 * 0.25 + 0.8 * 0.9, within(1e-9));
        assertThat(score(hits, D)).as("dense worst").isCloseTo(0.0, within(1e-9));
        assertThat(hits).extracting(Hit::entryId).containsExactly(B, C, A, D);
    }

    @Test
    void aCloseDenseRunnerUpKeepsItsPlaceWhereRanksWouldNot() {
        // two cosines a hair apart and a strong lexical match for the second: the second wins, as it should
        ScoreFusion f = new ScoreFusion(0.5, 100);
        List<Hit> hits = f.fuse(List.of(new Candidate(B, 9.0), new Candidate(A, 1.0)),
                List.of(new Candidate(A, 0.800), new Candidate(B, 0.799), new Candidate(C, 0.2)), Mode.HYBRID, 10);
        assertThat(hits.getFirst().entryId()).isEqualTo(B);
    }

    @Test
    void aSingleLegSearchRanksByThatLegAlone() {
        ScoreFusion f = new ScoreFusion(0.8, 100);
        List<Candidate> lexical = List.of(new Candidate(A, 3.0), new Candidate(B, 1.0));
        List<Candidate> dense = List.of(new Candidate(B, 0.9), new Candidate(C, 0.5));
        assertThat(f.fuse(lexical, dense, Mode.LEXICAL, 10)).extracting(Hit::entryId).containsExactly(A, B);
        assertThat(f.fuse(lexical, dense, Mode.DENSE, 10)).extracting(Hit::entryId).containsExactly(B, C);
        // one candidate (or all equal) is its leg's best
        assertThat(f.fuse(List.of(new Candidate(A, 0.3)), List.of(), Mode.LEXICAL, 10))
                .singleElement().satisfies(h -> assertThat(h.score()).isEqualTo(1.0));
    }

    @Test
    void onlyTheFirstDepthCountTiesGoByIdAndTheLimitCuts() {
        ScoreFusion f = new ScoreFusion(0.5, 2);
        List<Hit> deep = f.fuse(List.of(new Candidate(A, 3.0), new Candidate(B, 2.0), new Candidate(C, 1.0)), List.of(),
                Mode.HYBRID, 10);
        assertThat(deep).extracting(Hit::entryId).containsExactly(A, B);
        // A first lexically, B first densely, equal weights: equal scores, A before B by id; the limit keeps one
        List<Hit> tied = new ScoreFusion(0.5, 10).fuse(List.of(new Candidate(A, 2.0)),
                List.of(new Candidate(B, 0.9), new Candidate(C, 0.1)), Mode.HYBRID, 1);
        assertThat(tied).extracting(Hit::entryId).containsExactly(A);
    }

    @Test
    void eachModelHasItsOwnWeightAndAStrongerDenseModelWeighsMore() {
        assertThat(ScoreFusion.documents(EmbeddingModels.named("bge-small-en-v1.5-q").orElseThrow()).denseWeight())
                .isGreaterThan(ScoreFusion.documents(EmbeddingModels.DEFAULT).denseWeight());
        assertThat(EmbeddingModels.ALL).allSatisfy(m -> assertThat(m.fusionDenseWeight()).isBetween(0.05, 0.95));
        assertThatThrownBy(() -> new ScoreFusion(1.0, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ScoreFusion(0.5, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
