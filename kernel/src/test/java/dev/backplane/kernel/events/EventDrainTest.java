package dev.backplane.kernel.events;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The drain's retry backoff, without a database. */
class EventDrainTest {

    @Test
    void backoffDoublesFromOneSecondUpToTenMinutes() {
        assertThat(EventDrain.backoffMillis(1)).isEqualTo(1_000);
        assertThat(EventDrain.backoffMillis(2)).isEqualTo(2_000);
        assertThat(EventDrain.backoffMillis(5)).isEqualTo(16_000);
        assertThat(EventDrain.backoffMillis(10)).isEqualTo(512_000);
        assertThat(EventDrain.backoffMillis(11)).as("1024 s is over the cap").isEqualTo(600_000);
        assertThat(EventDrain.backoffMillis(EventDrain.MAX_ATTEMPTS)).isEqualTo(600_000);
        // far past the shift's width the cap still holds (no overflow into a negative or tiny wait)
        assertThat(EventDrain.backoffMillis(64)).isEqualTo(600_000);
        assertThat(EventDrain.backoffMillis(Integer.MAX_VALUE)).isEqualTo(600_000);
    }
}
