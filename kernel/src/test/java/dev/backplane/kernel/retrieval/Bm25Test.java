package dev.backplane.kernel.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.backplane.kernel.retrieval.LexicalIndex.Scored;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * BM25 over lexical slices built from {@code tsvector} text, without a database: the scores, rarer lexemes
 * weighing more, length normalisation, candidates, and changed entries scored as read ones.
 */
class Bm25Test {

    private static final UUID A = UUID.fromString("00000000-0000-0000-0000-00000000000a");
    private static final UUID B = UUID.fromString("00000000-0000-0000-0000-00000000000b");
    private static final UUID C = UUID.fromString("00000000-0000-0000-0000-00000000000c");
    private static final UUID D = UUID.fromString("00000000-0000-0000-0000-00000000000d");

    private static LexicalSlice slice(Object... entriesAndTsv) {
        LexicalSlice.Builder b = new LexicalSlice.Builder();
        for (int i = 0; i < entriesAndTsv.length; i += 2) {
            b.accept((UUID) entriesAndTsv[i], (String) entriesAndTsv[i + 1]);
        }
        return b.build();
    }

    private static List<Scored> rank(List<LexicalSlice> slices, Map<String, Integer> query, Candidates candidates) {
        return Bm25.ranked(slices, query, 10, candidates);
    }

    @Test
    void aDocumentScoresIdfTimesSaturatedLengthNormalisedFrequency() {
        LexicalSlice s = slice(A, "'cat':1,2 'dog':3", B, "'dog':1", C, "'fish':1 'bird':2");
        List<Scored> hits = rank(List.of(s), Map.of("cat", 1), Candidates.all());
        float average = 6f / 3;
        double expected = Bm25.term(Bm25.idf(3, 1), 2, 3, average);
        assertThat(hits).singleElement().satisfies(h -> {
            assertThat(h.entryId()).isEqualTo(A);
            assertThat(h.score()).isCloseTo(expected, within(1e-6));
        });
        assertThat(Bm25.idf(3, 1)).isCloseTo((float) Math.log(1 + 2.5 / 1.5), within(1e-6f));
        assertThat(Bm25.term(1, 2, 2, 2)).as("tf 2 at average length: 2 * 2.2 / 3.2")
                .isCloseTo(2 * 2.2f / 3.2f, within(1e-6f));
        assertThat(Bm25.term(1, 1, 4, 2)).as("tf 1 at twice the average length: 2.2 / (1 + 1.2 * 1.75)")
                .isCloseTo(2.2f / (1 + 1.2f * 1.75f), within(1e-6f));
    }

    @Test
    void rarerLexemesWeighMoreAndShorterDocumentsWin() {
        assertThat(Bm25.idf(100, 1)).isGreaterThan(Bm25.idf(100, 50));
        assertThat(Bm25.idf(100, 100)).as("never negative").isGreaterThanOrEqualTo(0f);
        assertThat(Bm25.term(1, 1, 2, 10)).as("shorter than average").isGreaterThan(Bm25.term(1, 1, 20, 10));
        assertThat(Bm25.term(1, 100, 10, 10)).as("saturates below K1 + 1").isLessThan(Bm25.K1 + 1);

        LexicalSlice s = slice(A, "'rare':1 'common':2", B, "'common':1", C, "'common':1 'x':2 'y':3 'z':4", D, "'w':1");
        List<Scored> hits = rank(List.of(s), Map.of("rare", 1, "common", 1), Candidates.all());
        assertThat(hits).extracting(Scored::entryId).as("the rare word first, then the shorter common one")
                .containsExactly(A, B, C);
    }

    @Test
    void candidatesLimitTheHitsButNotTheStatistics() {
        LexicalSlice s = slice(A, "'cat':1", B, "'cat':1 'dog':2", C, "'dog':1");
        List<Scored> all = rank(List.of(s), Map.of("cat", 1), Candidates.all());
        List<Scored> onlyB = rank(List.of(s), Map.of("cat", 1), Candidates.only(Set.of(B)));
        assertThat(onlyB).singleElement().isEqualTo(all.stream().filter(h -> h.entryId().equals(B)).findFirst()
                .orElseThrow());
        assertThat(rank(List.of(s), Map.of("cat", 1), Candidates.except(Set.of(A)))).extracting(Scored::entryId)
                .containsExactly(B);
    }

    @Test
    void aChangedEntryScoresAsIfItHadBeenRead() {
        String tsv = "'cat':1,2 'dog':3";
        UUID ghost = UUID.randomUUID();
        // the same statistics both ways: four documents, two of them with tsv; A read in one, patched in the other
        // B as long as A with one "cat" to A's two, so A ranks first whatever the length normalisation
        LexicalSlice read = slice(ghost, tsv, B, "'cat':1 'x':2 'y':3", C, "'dog':1", A, tsv);
        LexicalSlice patched = slice(ghost, tsv, B, "'cat':1 'x':2 'y':3", C, "'dog':1")
                .with(Set.of(ghost), Map.of(A, LexicalSlice.Doc.parse(A, tsv)));
        List<Scored> fresh = rank(List.of(read), Map.of("cat", 1), Candidates.except(Set.of(ghost)));
        List<Scored> viaPatch = rank(List.of(patched), Map.of("cat", 1), Candidates.all());
        assertThat(viaPatch).as("the replaced entry is skipped, the changed one scored").containsExactlyElementsOf(fresh);
        assertThat(viaPatch).extracting(Scored::entryId).containsExactly(A, B);

        LexicalSlice deleted = read.with(Set.of(A), Map.of());
        assertThat(rank(List.of(deleted), Map.of("cat", 1), Candidates.all())).extracting(Scored::entryId)
                .as("a replaced entry without a current document is gone").containsExactly(ghost, B);
    }

    @Test
    void partitionsAreOneCorpusAndTheBestKWin() {
        LexicalSlice one = slice(A, "'cat':1", B, "'dog':1");
        LexicalSlice two = slice(C, "'cat':1,2", D, "'dog':1");
        List<Scored> hits = Bm25.ranked(List.of(one, two), Map.of("cat", 1), 1, Candidates.all());
        assertThat(hits).extracting(Scored::entryId).containsExactly(C);
        double idf = Bm25.idf(4, 2);
        assertThat(hits.getFirst().score()).isCloseTo(Bm25.term((float) idf, 2, 2, 5f / 4), within(1e-6));
        assertThat(Bm25.ranked(List.of(), Map.of("cat", 1), 5, Candidates.all())).isEmpty();
    }

    @Test
    void tiesGoByEntryId() {
        LexicalSlice s = slice(B, "'cat':1", A, "'cat':1", C, "'dog':1");
        assertThat(rank(List.of(s), Map.of("cat", 1), Candidates.all())).extracting(Scored::entryId)
                .containsExactly(A, B);
    }
}
