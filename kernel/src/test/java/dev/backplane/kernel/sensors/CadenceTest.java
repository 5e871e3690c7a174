package dev.backplane.kernel.sensors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.errors.DomainException;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** When a sensor runs: its checked cadence, its first run, and the run after each claimed due time. */
class CadenceTest {

    private static final Instant T = Instant.parse("2026-03-02T12:00:00Z");

    private static void refused(Runnable r, String field, String message) {
        assertThatThrownBy(r::run).isInstanceOf(DomainException.class).satisfies(e -> {
            assertThat(((DomainException) e).code()).isEqualTo("invalid_sensor");
            assertThat(((DomainException) e).extras().get("field")).isEqualTo(field);
            assertThat(e.getMessage()).contains(message);
        });
    }

    @Test
    void anIntervalSensorRunsOneIntervalAfterItsDueTimeWhenOnTime() {
        assertThat(Cadence.nextAfter(60, null, null, T, T.plusMillis(800))).isEqualTo(T.plusSeconds(60));
        // claimed ahead of its due time (the lookahead): it still counts from the due time, not from now
        assertThat(Cadence.nextAfter(60, null, null, T, T.minusSeconds(2))).isEqualTo(T.plusSeconds(60));
    }

    @Test
    void aSensorLateByAPeriodOrMoreRunsOnceAndThenOnePeriodFromNow() {
        Instant now = T.plusSeconds(150); // 2.5 periods late: no catch-up runs for T+60 and T+120
        assertThat(Cadence.nextAfter(60, null, null, T, now)).isEqualTo(now.plusSeconds(60));
        // exactly one period late: the next due time would be now, which is not after now
        assertThat(Cadence.nextAfter(60, null, null, T, T.plusSeconds(60))).isEqualTo(T.plusSeconds(120));
        assertThat(Cadence.nextAfter(60, null, null, T, T.plusSeconds(59))).isEqualTo(T.plusSeconds(60));
    }

    @Test
    void aCronSensorRunsAtItsNextFiringAfterItsDueTimeOrAfterNowWhenLate() {
        String every10 = "0 */10 * * * *";
        assertThat(Cadence.nextAfter(null, every10, "UTC", T, T.plusSeconds(1))).isEqualTo(T.plusSeconds(600));
        assertThat(Cadence.nextAfter(null, every10, "UTC", T, T.minusSeconds(2))).isEqualTo(T.plusSeconds(600));
        assertThat(Cadence.nextAfter(null, every10, "UTC", T, T.plusSeconds(35 * 60))).isEqualTo(T.plusSeconds(40 * 60));
        // the zone decides the hour: 09:00 in Berlin is 08:00 UTC in March (before summer time)
        assertThat(Cadence.nextAfter(null, "0 0 9 * * *", "Europe/Berlin", T, T))
                .isEqualTo(Instant.parse("2026-03-03T08:00:00Z"));
    }

    @Test
    void aStoredCadenceThatNoLongerComputesIsInvalidSoTheRunnerPausesIt() {
        refused(() -> Cadence.nextAfter(null, "-", "UTC", T, T), "cron", "pause the sensor instead");
        assertThatThrownBy(() -> Cadence.nextAfter(null, "0 * * * * *", "Mars/Olympus_Mons", T, T))
                .isInstanceOf(DomainException.class)
                .satisfies(e -> assertThat(((DomainException) e).code()).isEqualTo("invalid_sensor"));
    }

    @Test
    void aNewCadenceRunsFirstNowForAnIntervalAndAtTheFirstFiringForACron() {
        Cadence interval = Cadence.of(5, null, null, T);
        assertThat(interval).isEqualTo(new Cadence("interval", Optional.of(5), Optional.empty(), Optional.empty(), T));
        Cadence cron = Cadence.of(null, "  0 30 * * * *  ", null, T);
        assertThat(cron.kind()).isEqualTo("cron");
        assertThat(cron.cron()).contains("0 30 * * * *");
        assertThat(cron.zone()).contains("UTC");
        assertThat(cron.first()).isEqualTo(T.plusSeconds(30 * 60));
        assertThat(Cadence.of(86_400, null, null, T).interval()).contains(86_400);
    }

    @Test
    void aCadenceIsExactlyOneOfIntervalOrCronWithinItsBounds() {
        refused(() -> Cadence.of(null, null, null, T), "interval_seconds", "exactly one cadence");
        refused(() -> Cadence.of(60, "0 * * * * *", null, T), "interval_seconds", "exactly one cadence");
        refused(() -> Cadence.of(4, null, null, T), "interval_seconds", "got 4");
        refused(() -> Cadence.of(86_401, null, null, T), "interval_seconds", "got 86401");
        refused(() -> Cadence.of(60, null, "UTC", T), "time_zone", "belongs to a cron");
    }

    @Test
    void aCronThatFiresTooOftenOrNeverIsRefused() {
        refused(() -> Cadence.of(null, "*/2 * * * * *", null, T), "cron", "more often than every 5 s");
        // two firings two seconds apart once a minute: only the shortest gap tells
        refused(() -> Cadence.of(null, "0,2 * * * * *", null, T), "cron", "more often than every 5 s");
        refused(() -> Cadence.of(null, "0 0 0 30 2 *", null, T), "cron", "");
        refused(() -> Cadence.of(null, "0 * * * *", null, T), "cron", "six-field");
        refused(() -> Cadence.of(null, " ", null, T), "cron", "empty");
        assertThat(Cadence.of(null, "*/5 * * * * *", null, T).first()).isEqualTo(T.plusSeconds(5));
    }
}
