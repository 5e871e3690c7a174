package dev.backplane.kernel.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The cron rules triggers and sensors share: each caller's own error code, and what to pause instead of '-'. */
class CronSchedulesTest {

    private enum Codes implements ErrorCode {
        INVALID_THING;

        @Override
        public ErrorKind kind() {
            return ErrorKind.INVALID;
        }
    }

    @Test
    void aBadExpressionIsTheCallersErrorNamingTheFieldAndWhatToPause() {
        assertThatThrownBy(() -> CronSchedules.parse("-", "UTC", Codes.INVALID_THING, "widget"))
                .isInstanceOfSatisfying(DomainException.class, e -> {
                    assertThat(e.code()).isEqualTo("invalid_thing");
                    assertThat(e.extras()).containsEntry("field", "cron");
                })
                .hasMessageContaining("pause the widget instead");
        assertThatThrownBy(() -> CronSchedules.parse("0 * * * * *".repeat(40), "UTC", Codes.INVALID_THING, "widget"))
                .hasMessageContaining("longer than 200");
        assertThatThrownBy(() -> CronSchedules.parse("0 0 6 * * *", "Nowhere/Else", Codes.INVALID_THING, "widget"))
                .isInstanceOf(DomainException.class).hasMessageContaining("time_zone");
    }

    @Test
    void theShortestGapLooksPastTheFirstTwoFiringsAndIsNullWithNothingToCompare() {
        var twiceAnHour = CronSchedules.parse("0,10 0 * * * *", "UTC", Codes.INVALID_THING, "widget");
        Instant first = CronSchedules.next(twiceAnHour, Instant.parse("2026-11-23T10:00:15Z"), Codes.INVALID_THING);
        assertThat(first).isEqualTo(Instant.parse("2026-11-23T11:00:00Z"));
        assertThat(CronSchedules.shortestGap(twiceAnHour, first, 1000, Codes.INVALID_THING))
                .isEqualTo(Duration.ofSeconds(10));
        // one firing allowed to be looked at: no gap to measure
        assertThat(CronSchedules.shortestGap(twiceAnHour, first, 0, Codes.INVALID_THING)).isNull();
        var leapDays = CronSchedules.parse("0 0 0 29 2 *", "UTC", Codes.INVALID_THING, "widget");
        Instant leap = CronSchedules.next(leapDays, Instant.parse("2027-01-01T00:00:00Z"), Codes.INVALID_THING);
        assertThat(leap).isEqualTo(Instant.parse("2028-02-29T00:00:00Z"));
        assertThat(CronSchedules.shortestGap(leapDays, leap, 1000, Codes.INVALID_THING)).as("every leap day: four years apart")
                .isEqualTo(Duration.ofDays(4 * 365 + 1));
    }
}
