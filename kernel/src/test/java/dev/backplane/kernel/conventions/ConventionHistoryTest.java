package dev.backplane.kernel.conventions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.conventions.ConventionStore.VersionRow;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How a history names each version's changes and diffs it against the version before, without a database. */
class ConventionHistoryTest {

    private static final Instant T = Instant.parse("2025-01-02T03:04:05Z");

    private static VersionRow row(int version, String title, String kind, int priority, String body) {
        return new VersionRow(version, title, kind, priority, body, "user-" + version, T.plusSeconds(version));
    }

    @Test
    void theFirstVersionIsCreatedAndDiffedAgainstNothing() {
        List<ConventionVersion> h = ConventionHistory.of("deploys", List.of(row(1, "T", "operational", 0, "a\nb")), 20);
        assertThat(h).hasSize(1);
        assertThat(h.get(0).changes()).containsExactly(new ConventionVersion.Change("created", null, 1));
        assertThat(h.get(0).bodyDiff()).startsWith("--- /dev/null\n+++ b/deploys (version 1)\n").contains("+a\n+b\n");
        assertThat(h.get(0).changedBy()).isEqualTo("user-1");
        assertThat(h.get(0).changedAt()).isEqualTo(T.plusSeconds(1));
    }

    @Test
    void eachChangedFieldIsNamedWithItsValuesTheBodyOnlyByName() {
        VersionRow before = row(1, "Old", "operational", 0, "x");
        assertThat(ConventionHistory.changes(Optional.of(before), row(2, "New", "workflow", 5, "y"))).containsExactly(
                new ConventionVersion.Change("title", "Old", "New"), new ConventionVersion.Change("kind", "operational", "workflow"),
                new ConventionVersion.Change("priority", 0, 5), new ConventionVersion.Change("body", null, null));
        assertThat(ConventionHistory.changes(Optional.of(before), row(2, "Old", "operational", 0, "x"))).isEmpty();
        assertThat(ConventionHistory.changes(Optional.of(before), row(2, "Old", "operational", -1, "x")))
                .containsExactly(new ConventionVersion.Change("priority", 0, -1));
    }

    @Test
    void aRowBeyondTheLimitOnlyServesAsTheOneBefore() {
        List<VersionRow> newestFirst = List.of(row(3, "T", "workflow", 0, "c"), row(2, "T", "workflow", 0, "b"),
                row(1, "T", "workflow", 0, "a"));
        List<ConventionVersion> h = ConventionHistory.of("s", newestFirst, 2);
        assertThat(h).extracting(ConventionVersion::version).containsExactly(3, 2);
        assertThat(h.get(1).changes()).as("version 2 is diffed against 1, not shown as created")
                .containsExactly(new ConventionVersion.Change("body", null, null));
        assertThat(h.get(1).bodyDiff()).startsWith("--- a/s (version 1)\n+++ b/s (version 2)\n")
                .contains("-a\n+b\n");
        assertThat(ConventionHistory.of("s", newestFirst, 3).get(2).changes())
                .containsExactly(new ConventionVersion.Change("created", null, 1));
    }
}
