package dev.backplane.kernel.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.errors.DomainException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CronScheduleTest {

    @Test
    void theShortestGapIsFoundEvenWhenTheFirstTwoFiringsAreFarApart() {
        var schedule = Triggers.schedule("0,30 0 * * * *", "UTC");
        Instant first = Triggers.next(schedule, Instant.parse("2026-11-23T10:00:15Z"));
        assertThat(first).isEqualTo(Instant.parse("2026-11-23T10:00:30Z"));
        assertThat(Triggers.shortestGap(schedule, first)).isEqualTo(Duration.ofSeconds(30));
        var weekdays = Triggers.schedule("0 30 6 * * MON-FRI", "Europe/Berlin");
        assertThat(Triggers.shortestGap(weekdays, Triggers.next(weekdays, Instant.parse("2026-11-23T00:00:00Z"))))
                .isEqualTo(Duration.ofDays(1));
    }

    @Test
    void disabledAndMalformedSchedulesAreRefusedNotThrownAt() {
        for (String bad : new String[] {"-", "* * * * *", "61 * * * * *", "x y z", ""}) {
            assertThatThrownBy(() -> Triggers.schedule(bad, "UTC")).as(bad).isInstanceOf(DomainException.class)
                    .hasMessageContaining("cron");
        }
        assertThatThrownBy(() -> Triggers.schedule("0 0 6 * * *", "Mars/Olympus")).isInstanceOf(DomainException.class)
                .hasMessageContaining("time_zone");
    }
}
