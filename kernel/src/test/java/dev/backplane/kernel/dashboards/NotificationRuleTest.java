package dev.backplane.kernel.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** When a changed roll-up notifies, is suppressed, or stays quiet; no database. */
class NotificationRuleTest {

    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
    private static final Duration WINDOW = Duration.ofMinutes(30);

    private static NotificationRule decide(String from, String to, String minState, Instant lastNotified) {
        return NotificationRule.decide(true, from, to, minState, true, lastNotified, NOW, WINDOW);
    }

    @Test
    void onlyAWorseningToTheMinimumStateNotifies() {
        assertThat(decide("ok", "critical", "critical", null)).isEqualTo(NotificationRule.CLAIM);
        assertThat(decide("ok", "degraded", "degraded", null)).isEqualTo(NotificationRule.CLAIM);
        assertThat(decide("degraded", "critical", "degraded", null)).isEqualTo(NotificationRule.CLAIM);
        assertThat(decide("ok", "degraded", "critical", null)).isEqualTo(NotificationRule.QUIET);
        assertThat(decide("critical", "degraded", "degraded", null)).as("better is not news")
                .isEqualTo(NotificationRule.QUIET);
        assertThat(decide("ok", "unknown", "degraded", null)).isEqualTo(NotificationRule.QUIET);
    }

    @Test
    void aDeletedMemberOrANowhereToNotifyStaysQuiet() {
        assertThat(NotificationRule.decide(false, "ok", "critical", "critical", true, null, NOW, WINDOW))
                .isEqualTo(NotificationRule.QUIET);
        assertThat(NotificationRule.decide(true, "ok", "critical", "critical", false, null, NOW, WINDOW))
                .isEqualTo(NotificationRule.QUIET);
    }

    @Test
    void aNotificationWithinTheWindowIsSuppressed() {
        assertThat(decide("ok", "critical", "critical", NOW.minus(Duration.ofMinutes(29))))
                .isEqualTo(NotificationRule.SUPPRESSED);
        assertThat(decide("ok", "critical", "critical", NOW.minus(Duration.ofMinutes(31))))
                .isEqualTo(NotificationRule.CLAIM);
        assertThat(decide("ok", "critical", "critical", NOW.minus(WINDOW))).as("the window's edge is outside it")
                .isEqualTo(NotificationRule.CLAIM);
        assertThat(decide("ok", "degraded", "critical", NOW)).as("quiet wins over suppressed")
                .isEqualTo(NotificationRule.QUIET);
    }
}
