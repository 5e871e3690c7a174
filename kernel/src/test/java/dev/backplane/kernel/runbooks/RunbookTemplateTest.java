package dev.backplane.kernel.runbooks;

import static dev.backplane.kernel.runbooks.RunbookTemplate.Status.DEPRECATED;
import static dev.backplane.kernel.runbooks.RunbookTemplate.Status.DRAFT;
import static dev.backplane.kernel.runbooks.RunbookTemplate.Status.PUBLISHED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.runbooks.RunbookTemplate.Status;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A template version's moves: a draft is published, a published version deprecated, and nothing else —
 * a published version never goes back to draft, a deprecated one is never published again.
 */
class RunbookTemplateTest {

    @Test
    void aDraftIsPublishedAndAPublishedVersionDeprecatedNothingElse() {
        for (Status from : Status.values()) {
            for (Status to : Status.values()) {
                boolean allowed = from == DRAFT && to == PUBLISHED || from == PUBLISHED && to == DEPRECATED;
                assertThat(from.canMoveTo(to)).as(from + " -> " + to).isEqualTo(allowed);
            }
        }
        assertThat(PUBLISHED.canMoveTo(DRAFT)).as("a published version never changes").isFalse();
        assertThat(DRAFT.canMoveTo(DEPRECATED)).as("only a published version is deprecated").isFalse();
        assertThat(DEPRECATED.canMoveTo(PUBLISHED)).as("a retired version stays retired").isFalse();
    }

    @Test
    void statusesKeepTheirWireNamesAndAVersionReadsItsOwn() {
        assertThat(Status.wireNames()).containsExactly("draft", "published", "deprecated");
        assertThat(Status.parse("published")).contains(PUBLISHED);
        assertThat(Status.parse("Published")).isEmpty();
        assertThat(version("deprecated").state()).isEqualTo(DEPRECATED);
        assertThatThrownBy(() -> version("retired").state()).isInstanceOf(IllegalStateException.class);
    }

    private static RunbookTemplate version(String status) {
        return new RunbookTemplate("restart", 1, status, "Restart", Optional.empty(), 0, "", null, "a", Instant.EPOCH,
                "a", Instant.EPOCH, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }
}
