package dev.backplane.kernel.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GroundedAnswerTest {

    private static DocsChunk chunk(int rank, String id, String text) {
        return new DocsChunk(rank, "c", id, Optional.of("T" + id), Optional.empty(), text, 0.1, Optional.empty(),
                new DocsChunk.Citation("c", Optional.of("T" + id), Optional.empty(), id));
    }

    @Test
    void quotesTheBestMatchingSentencesEachWithAMarkerOfItsPassage() {
        var a = GroundedAnswer.answer("how to rotate kubelet certificates", List.of(
                chunk(1, "a", "# Certificates\nThe kubelet rotates its client certificate when rotateCertificates is "
                        + "set. Nothing else changes here at all."),
                chunk(2, "b", "Rotation of kubelet serving certificates needs the CSR approver.")));
        assertThat(a.grounded()).isTrue();
        assertThat(a.answer()).isEqualTo("The kubelet rotates its client certificate when rotateCertificates is set. [1] "
                + "Rotation of kubelet serving certificates needs the CSR approver. [2]");
        assertThat(a.sources()).extracting(GroundedAnswer.Source::chunkId).containsExactly("a", "b");
    }

    @Test
    void nothingRetrievedOrNothingRelevantIsNoGroundedAnswer() {
        assertThat(GroundedAnswer.answer("anything at all", List.of()).answer()).isEqualTo("no grounded answer");
        var none = GroundedAnswer.answer("quantum entanglement", List.of(chunk(1, "a", "The kubelet rotates its "
                + "client certificate when asked to.")));
        assertThat(none.answer()).isEqualTo("no grounded answer");
        assertThat(none.grounded()).isFalse();
        assertThat(none.sources()).isEmpty();
        assertThat(GroundedAnswer.answer("the of and", List.of(chunk(1, "a", "the of and is a sentence here")))
                .grounded()).as("a query of stopwords only has no terms to ground").isFalse();
    }

    @Test
    void headingsAndListMarkersAreNotClaims() {
        assertThat(GroundedAnswer.sentences("# Failover steps\n- promote the standby with pg_ctl\n- rewind the old "
                + "primary with pg_rewind\nthen let it rejoin.\n\nShort one."))
                .containsExactly("promote the standby with pg_ctl",
                        "rewind the old primary with pg_rewind then let it rejoin.");
        assertThat(GroundedAnswer.same("rotate", "rotation")).isTrue();
        assertThat(GroundedAnswer.same("pods", "pod")).isTrue();
        assertThat(GroundedAnswer.same("data", "date")).isFalse();
    }
}
