package dev.backplane.kernel.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.errors.DomainException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The query every retrieval surface takes, and the invalid_query it answers anything else with. */
class SearchQueryTest {

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "nul\u0000here", "?!  --", "…"})
    void refusedQueriesAreInvalidQuery(String query) {
        assertThatThrownBy(() -> SearchQuery.require(query)).isInstanceOfSatisfying(DomainException.class,
                e -> assertThat(e.code()).isEqualTo("invalid_query"));
    }

    @Test
    void nullAndOverlongQueriesAreRefused() {
        assertThatThrownBy(() -> SearchQuery.require(null)).isInstanceOf(DomainException.class);
        assertThatThrownBy(() -> SearchQuery.require("a".repeat(SearchQuery.MAX_CHARS + 1)))
                .isInstanceOf(DomainException.class).hasMessageContaining("at most " + SearchQuery.MAX_CHARS);
    }

    @Test
    void aQueryWithALetterOrDigitUpToTheLimitIsTaken() {
        assertThatCode(() -> SearchQuery.require("a".repeat(SearchQuery.MAX_CHARS))).doesNotThrowAnyException();
        assertThatCode(() -> SearchQuery.require("404?")).doesNotThrowAnyException();
        assertThatCode(() -> SearchQuery.require("grüße")).doesNotThrowAnyException();
    }
}
