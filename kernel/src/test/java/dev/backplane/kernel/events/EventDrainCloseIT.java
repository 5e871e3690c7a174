package dev.backplane.kernel.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.testing.LogCapture;
import dev.backplane.kernel.testing.ScratchDatabase;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Closing the drain (a kernel stopping) on a real (embedded) PostgreSQL while a batch is in flight: the batch may
 * finish and commit, so a stop under load breaks no connection and repeats nothing; a batch that overruns the wait
 * is interrupted, rolls back whole and stays due for the next drain.
 */
class EventDrainCloseIT {

    @RegisterExtension
    static final ScratchDatabase.PerClass DB = ScratchDatabase.perClass("svc-event-drain-close");

    @Test
    void aBatchInFlightCommitsBeforeTheDrainStops() throws Exception {
        EventSource source = write("held", 3);
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        LogCapture logs = LogCapture.onRootLogger();
        try {
            EventDrain drain = new EventDrain(DB.jdbc(), ChangeFeed.disabled(), Duration.ofSeconds(30));
            drain.subscribe("test.held", (c, event) -> {
                entered.countDown();
                release.await();
            });
            drain.wake();
            assertThat(entered.await(20, TimeUnit.SECONDS)).as("the drain took the batch").isTrue();
            Thread closer = Thread.ofVirtual().start(drain::close);
            Thread.sleep(300);
            assertThat(closer.isAlive()).as("close waits for the batch in flight").isTrue();
            release.countDown();
            assertThat(closer.join(Duration.ofSeconds(20))).as("close returns once the batch is done").isTrue();
        } finally {
            logs.detach();
        }
        assertThat(due(source)).as("the batch committed: its deliveries are done").isEmpty();
        assertThat(logs.lines()).as("nothing broken, nothing retried").noneMatch(l -> l.startsWith("WARNING")
                || l.startsWith("SEVERE"));
    }

    @Test
    void aBatchThatOverrunsTheWaitRollsBackAndIsDeliveredByTheNextDrain() throws Exception {
        EventSource source = write("stuck", 2);
        CountDownLatch entered = new CountDownLatch(1);
        EventDrain drain = new EventDrain(DB.jdbc(), ChangeFeed.disabled(), Duration.ofMillis(300));
        drain.subscribe("test.stuck", (c, event) -> {
            entered.countDown();
            try {
                new CountDownLatch(1).await(); // only an interrupt ends it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // as a well-behaved subscriber does: the flag kept, a wrapper thrown
                throw new IllegalStateException("interrupted", e);
            }
        });
        drain.wake();
        assertThat(entered.await(20, TimeUnit.SECONDS)).isTrue();
        long started = System.nanoTime();
        drain.close();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("close waits no longer than it was told")
                .isLessThan(Duration.ofSeconds(5));
        awaitDue(source, List.of(0, 0)); // rolled back: both due, and no attempt counted against them

        CountDownLatch delivered = new CountDownLatch(2);
        EventDrain next = new EventDrain(DB.jdbc(), ChangeFeed.disabled());
        try {
            next.subscribe("test.stuck", (c, event) -> delivered.countDown());
            next.wake();
            assertThat(delivered.await(20, TimeUnit.SECONDS)).as("the next drain delivers both").isTrue();
            awaitDue(source, List.of());
        } finally {
            next.close();
        }
    }

    /** {@code n} accepted events of a new source, each due to the subscriber {@code test.<name>}. */
    private static EventSource write(String name, int n) {
        EventSource source = TestEvents.source(name);
        try (EventCommits commits = new EventCommits(new EventStore(DB.jdbc()))) {
            for (int i = 0; i < n; i++) {
                assertThat(commits.write(TestEvents.event(source, name + "-" + i, "ok", "test." + name))).isTrue();
            }
        }
        return source;
    }

    /** The attempts of each delivery of {@code source}'s events still due. */
    private static List<Integer> due(EventSource source) {
        return DB.jdbc().query("SELECT d.attempts FROM event_deliveries d JOIN events e ON e.id = d.event_id "
                + "WHERE e.source_id = ? AND d.status = 'pending'", rs -> rs.getInt(1), source.id());
    }

    private static void awaitDue(EventSource source, List<Integer> attempts) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!due(source).equals(attempts)) {
            assertThat(System.nanoTime()).as("deliveries due: " + attempts + ", now " + due(source))
                    .isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
