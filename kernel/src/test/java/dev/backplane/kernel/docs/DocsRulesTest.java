package dev.backplane.kernel.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.errors.DomainException;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The docs rules that need no database or backend: collection keys, product lists, and rank fusion. */
class DocsRulesTest {

    private static DocsFanOut.Ranked ranked(String collection, String id, int rank, int order) {
        return new DocsFanOut.Ranked(new DocsBackend.Passage(collection, id, "text of " + id, Optional.empty(),
                Optional.empty(), Optional.of(0.5)), rank, order);
    }

    @Test
    void keysAreLowercaseAndAllIsReserved() {
        CollectionFields.key("vendor-docs");
        CollectionFields.key("a.b_c-9");
        CollectionFields.key("x".repeat(64));
        for (String bad : new String[] {null, "", "Docs", "-docs", ".docs", "x".repeat(65), "all", "a b"}) {
            assertThatThrownBy(() -> CollectionFields.key(bad)).as(String.valueOf(bad))
                    .isInstanceOf(DomainException.class)
                    .satisfies(e -> assertThat(((DomainException) e).code()).isEqualTo("invalid_key"));
        }
    }

    @Test
    void productsAreStrippedDistinctAndBounded() {
        assertThat(CollectionFields.products(List.of(" nginx ", "nginx", "postgres"))).containsExactly("nginx", "postgres");
        assertThat(CollectionFields.products(Collections.nCopies(32, "p"))).containsExactly("p");
        for (List<String> bad : List.of(Collections.nCopies(33, "p"), List.of(" "), List.of("x".repeat(129)))) {
            assertThatThrownBy(() -> CollectionFields.products(bad)).isInstanceOf(DomainException.class)
                    .hasMessageContaining("up to 32 non-empty strings");
        }
        assertThat(CollectionFields.blankToNull(Optional.of("  Acme "))).isEqualTo("Acme");
        assertThat(CollectionFields.blankToNull(Optional.of("  "))).isNull();
        assertThat(CollectionFields.blankToNull(Optional.empty())).isNull();
    }

    @Test
    void fusionInterleavesByRankAndBreaksTiesByCollectionOrder() {
        List<DocsChunk> chunks = DocsFanOut.fuse(List.of(ranked("b", "b1", 1, 1), ranked("a", "a2", 2, 0),
                ranked("a", "a1", 1, 0), ranked("b", "b2", 2, 1), ranked("a", "a3", 3, 0)), 4);
        assertThat(chunks).extracting(DocsChunk::chunkId).containsExactly("a1", "b1", "a2", "b2");
        assertThat(chunks).extracting(DocsChunk::rank).containsExactly(1, 2, 3, 4);
        assertThat(chunks.getFirst().score()).isEqualTo(Math.round(1e6 / 61) / 1e6);
        assertThat(chunks.get(2).score()).isEqualTo(Math.round(1e6 / 62) / 1e6);
        assertThat(chunks.getFirst().backendScore()).contains(0.5);
        assertThat(chunks.getFirst().citation()).isEqualTo(new DocsChunk.Citation("a", Optional.empty(),
                Optional.empty(), "a1"));
        assertThat(DocsFanOut.fuse(List.of(), 10)).isEmpty();
    }
}
