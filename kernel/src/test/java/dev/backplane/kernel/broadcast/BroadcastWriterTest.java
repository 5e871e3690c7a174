package dev.backplane.kernel.broadcast;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The writer stores in batches, keeps the good rows of a batch with a bad one, and counts what it drops. */
class BroadcastWriterTest {

    private static final UUID TENANT = UUID.randomUUID();

    private static Activity activity(String text) {
        return Activity.of(TENANT, Activity.Kind.RUN, text, "alice", "alice", Optional.of("ok"));
    }

    @Test
    void aBadRowIsDroppedAloneWhileTheDatabaseAnswers() {
        List<String> stored = new CopyOnWriteArrayList<>();
        BroadcastWriter.Sink sink = batch -> {
            if (batch.stream().anyMatch(a -> a.activity().equals("bad"))) {
                throw new IllegalStateException("value too long");
            }
            batch.forEach(a -> stored.add(a.activity()));
        };
        BroadcastWriter writer = new BroadcastWriter(sink, () -> true, 100);
        writer.offer(activity("one"));
        writer.offer(activity("bad"));
        writer.offer(activity("two"));
        writer.close();

        assertThat(stored).containsExactlyInAnyOrder("one", "two");
        assertThat(writer.dropped()).isEqualTo(1);
    }

    @Test
    void closingStoresWhatIsQueuedAndDropsWhatComesAfter() {
        List<List<Activity>> batches = new CopyOnWriteArrayList<>();
        BroadcastWriter writer = new BroadcastWriter(batch -> batches.add(List.copyOf(batch)), () -> true, 100);
        for (int i = 0; i < 10; i++) {
            writer.offer(activity("a" + i));
        }
        writer.close();
        writer.offer(activity("late"));

        assertThat(batches.stream().mapToInt(List::size).sum()).isEqualTo(10);
        assertThat(batches.stream().flatMap(List::stream).map(Activity::activity)).doesNotContain("late");
        assertThat(writer.dropped()).isEqualTo(1);
    }

    @Test
    void aFullQueueDropsInsteadOfBlocking() throws Exception {
        Object gate = new Object();
        CountDownLatch writing = new CountDownLatch(1);
        List<Activity> stored = new CopyOnWriteArrayList<>();
        BroadcastWriter writer = new BroadcastWriter(batch -> {
            writing.countDown();
            synchronized (gate) { // the writer thread waits here until the queue has been overfilled
                stored.addAll(batch);
            }
        }, () -> true, 2);
        synchronized (gate) {
            writer.offer(activity("first"));
            assertThat(writing.await(10, TimeUnit.SECONDS)).as("the writer holds the first batch").isTrue();
            for (int i = 0; i < 10; i++) {
                writer.offer(activity("a" + i));
            }
            // the writer is stuck in its first batch and the queue holds two: the other eight are dropped at once
            assertThat(writer.dropped()).isEqualTo(8);
        }
        writer.close();
        assertThat(stored.size() + writer.dropped()).as("every activity is stored or counted").isEqualTo(11);
    }

    @Test
    void activitiesArrivingWithinTheLingerShareOneBatch() throws Exception {
        List<List<Activity>> batches = new CopyOnWriteArrayList<>();
        BroadcastWriter writer = new BroadcastWriter(batch -> batches.add(List.copyOf(batch)), () -> true, 100);
        for (int i = 0; i < 5; i++) { // five activities about 5 ms apart, all within the 50 ms linger of the first
            writer.offer(activity("a" + i));
            Thread.sleep(5);
        }
        writer.close();
        assertThat(batches.stream().mapToInt(List::size).sum()).isEqualTo(5);
        // one transaction each before the linger; a slow machine's sleeps may overrun it once or twice
        assertThat(batches).as("batches").hasSizeLessThanOrEqualTo(3);
    }
}
