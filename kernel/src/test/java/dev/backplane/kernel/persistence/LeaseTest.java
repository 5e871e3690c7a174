package dev.backplane.kernel.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** The lease timing async calls and agent runs share: how often a holder renews, and when the renewals end. */
class LeaseTest {

    private static void await(BooleanSupplier condition) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(10);
        while (!condition.getAsBoolean()) {
            assertThat(Instant.now()).as("condition not met in time").isBefore(deadline);
            Thread.sleep(10);
        }
    }

    @Test
    void aHolderRenewsEveryThirdOfTheLeaseAndNeverMoreOftenThanTenTimesASecond() {
        assertThat(new Lease(Duration.ofSeconds(90)).renewEvery()).isEqualTo(Duration.ofSeconds(30));
        assertThat(new Lease(Duration.ofMillis(150)).renewEvery()).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void aLeaseMustLast() {
        assertThatThrownBy(() -> new Lease(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Lease(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void eachRenewalExtendsTheLeaseFromNowUntilTheHeartbeatStops() throws Exception {
        Lease lease = new Lease(Duration.ofMillis(300));
        var untils = new CopyOnWriteArrayList<Timestamp>();
        Instant before = Instant.now();
        Lease.Heartbeat beat = lease.keepAlive("test-lease", until -> untils.add(until));

        await(() -> untils.size() >= 3);
        beat.stop();
        await(() -> !beat.beating());
        int renewed = untils.size();
        Thread.sleep(350);

        assertThat(untils).hasSize(renewed); // no renewal after the stop
        assertThat(untils.getFirst().toInstant()).isAfter(before.plus(Duration.ofMillis(300)));
        assertThat(untils.getLast().toInstant()).isAfter(untils.getFirst().toInstant());
    }

    @Test
    void renewalsEndWhenTheRowIsNoLongerHeld() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        Lease.Heartbeat beat = new Lease(Duration.ofMillis(300)).keepAlive("test-lease", until ->
                calls.incrementAndGet() < 2);

        await(() -> !beat.beating());
        assertThat(calls).hasValue(2);
    }

    @Test
    void aFailedRenewalIsTriedAgainAtTheNextBeat() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        Lease.Heartbeat beat = new Lease(Duration.ofMillis(300)).keepAlive("test-lease", until -> {
            if (calls.incrementAndGet() == 1) {
                throw new Jdbc.DataAccessException(new java.sql.SQLException("connection refused", "08001"));
            }
            return calls.get() < 3;
        });

        await(() -> !beat.beating());
        assertThat(calls).hasValue(3);
    }
}
