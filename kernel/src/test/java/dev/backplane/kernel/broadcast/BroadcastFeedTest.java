package dev.backplane.kernel.broadcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.backplane.kernel.errors.DomainException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The feed's reading rules: cursors, op class filters, when a window closes (a summary's reach: BroadcastSummaryTest). */
class BroadcastFeedTest {

    private static void refusedWith(Runnable r, String code, String field) {
        assertThatThrownBy(r::run).isInstanceOfSatisfying(DomainException.class, e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.extras()).containsEntry("field", field);
        });
    }

    @Test
    void aCursorIsAStreamIdOrATime() {
        assertThat(FeedCursor.parse(" 42 ")).isEqualTo(new FeedCursor.BeforeId(42));
        assertThat(FeedCursor.parse("999999999999999999")).isEqualTo(new FeedCursor.BeforeId(999_999_999_999_999_999L));
        assertThat(FeedCursor.parse("2026-01-02T03:04:05Z"))
                .isEqualTo(new FeedCursor.BeforeTime(Instant.parse("2026-01-02T03:04:05Z")));
        refusedWith(() -> FeedCursor.parse("next-page"), "invalid_cursor", "cursor");
        refusedWith(() -> FeedCursor.parse("-5"), "invalid_cursor", "cursor");
    }

    @Test
    void anOpClassFilterMustNameAnOpClassExactly() {
        for (String ok : new String[] {"read", "write", "credential_read", "other"}) {
            assertThatCode(() -> BroadcastFeed.checkOpClass(ok)).doesNotThrowAnyException();
        }
        refusedWith(() -> BroadcastFeed.checkOpClass("writes"), "invalid_filter", "op_class");
        refusedWith(() -> BroadcastFeed.checkOpClass("READ"), "invalid_filter", "op_class");
        refusedWith(() -> BroadcastFeed.checkOpClass("audit_query"), "invalid_filter", "op_class");
    }

    @Test
    void aWindowClosesAfterItsLengthPlusAGraceOfAtMostThirtySeconds() {
        assertThat(BroadcastFeed.closeAfterSeconds(Duration.ofSeconds(10))).isEqualTo(20.0);
        assertThat(BroadcastFeed.closeAfterSeconds(Duration.ofMinutes(5))).isEqualTo(330.0);
    }
}
