package dev.backplane.kernel.conventions;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ConventionPackerTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static Convention c(String slug, String kind, int priority, int ageSeconds, String body) {
        return new Convention(UUID.randomUUID(), slug, "Title " + slug, kind, priority, body, 1,
                T0.minusSeconds(ageSeconds), "u", T0, "u");
    }

    @Test
    void tokensAreCharactersOverFourRoundedUp() {
        assertThat(ConventionPacker.tokens("")).isZero();
        assertThat(ConventionPacker.tokens("abcd")).isEqualTo(1);
        assertThat(ConventionPacker.tokens("abcde")).isEqualTo(2);
    }

    @Test
    void highestPriorityFirstTiesOldestThenSlugAndOnlyOperational() {
        var packed = ConventionPacker.pack(List.of(c("low", "operational", -5, 0, "Low."),
                c("young", "operational", 7, 10, "Young."), c("old", "operational", 7, 20, "Old."),
                c("b-same-age", "operational", 7, 20, "B."), c("ref", "reference", 999, 0, "Reference."),
                c("top", "operational", 100, 0, "Top.")), 10_000);
        assertThat(packed.included()).containsExactly("top", "b-same-age", "old", "young", "low");
        assertThat(packed.dropped()).isEmpty();
        assertThat(packed.text()).startsWith(ConventionPacker.HEADING).doesNotContain("Reference.");
        assertThat(packed.text().indexOf("Top.")).isLessThan(packed.text().indexOf("Low."));
        assertThat(packed.used()).isEqualTo(ConventionPacker.tokens(packed.text()));
    }

    @Test
    void overTheBudgetAnEntryIsDroppedWholeAndASmallerLowerOneStillFits() {
        String big = "First sentence of a long rule. " + "Second sentence that goes on. ".repeat(20);
        var packed = ConventionPacker.pack(List.of(c("first", "operational", 10, 0, "Always say which ticket."),
                c("big", "operational", 5, 0, big), c("small", "operational", 1, 0, "Be brief.")), 60);
        assertThat(packed.included()).containsExactly("first", "small");
        assertThat(packed.dropped()).containsExactly("big");
        assertThat(packed.text()).contains("Always say which ticket.").contains("Be brief.")
                .doesNotContain("First sentence");
        assertThat(ConventionPacker.tokens(packed.text())).isLessThanOrEqualTo(60);
    }

    @Test
    void nothingFitsOrNothingThereGivesNoSection() {
        assertThat(ConventionPacker.pack(List.of(), 100).text()).isEmpty();
        var none = ConventionPacker.pack(List.of(c("a", "operational", 0, 0, "x".repeat(1000))), 50);
        assertThat(none.text()).isEmpty();
        assertThat(none.dropped()).containsExactly("a");
        assertThat(ConventionPacker.pack(List.of(c("a", "operational", 0, 0, "rule")), 0).text()).isEmpty();
    }
}
