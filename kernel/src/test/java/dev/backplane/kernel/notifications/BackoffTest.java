package dev.backplane.kernel.notifications;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The wait between delivery attempts: doubling from the initial wait, capped. */
class BackoffTest {

    @Test
    void theWaitDoublesAfterEachFailureUpToTheCap() {
        Backoff b = new Backoff(Duration.ofSeconds(10), Duration.ofSeconds(900));
        assertThat(b.after(1)).isEqualTo(Duration.ofSeconds(10));
        assertThat(b.after(2)).isEqualTo(Duration.ofSeconds(20));
        assertThat(b.after(3)).isEqualTo(Duration.ofSeconds(40));
        assertThat(b.after(7)).isEqualTo(Duration.ofSeconds(640));
        assertThat(b.after(8)).as("1280 s capped").isEqualTo(Duration.ofSeconds(900));
        assertThat(b.after(100)).as("no overflow").isEqualTo(Duration.ofSeconds(900));
        assertThat(b.after(0)).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void aCapBelowTheInitialWaitIsRefused() {
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(10), Duration.ofSeconds(5)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(5)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theLeaseOutlastsTheLongerTimeoutAndTheCapIsNeverBelowTheInitialWait() {
        var d = ApprovalNotifications.Delivery.of(Duration.ofSeconds(30), Duration.ofSeconds(5), 3,
                Duration.ofSeconds(10), Duration.ofSeconds(20));
        assertThat(d.retry().after(5)).isEqualTo(Duration.ofSeconds(30));
        assertThat(d.lease()).isEqualTo(Duration.ofSeconds(90));
    }
}
