package dev.backplane.kernel.broadcast;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** One open stream: its filter, its bounded buffer, and how a drop ends it after what was already buffered. */
class BroadcastSubscriptionTest {

    private static final UUID TENANT = UUID.randomUUID();

    private static BroadcastEvent event(long id, String opClass) {
        return new BroadcastEvent(id, TENANT, Instant.now(), "call", "something", Optional.empty(), Optional.of(opClass),
                Optional.empty(), Optional.empty(), Optional.empty(), List.of(), Optional.empty(), "alice",
                Optional.empty(), "alice", Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.<Map<String, Object>>empty(), List.of());
    }

    @Test
    void aStreamHandsOutWhatWasOfferedInOrderAndMatchesItsFilter() throws InterruptedException {
        BroadcastSubscription s = new BroadcastSubscription(TENANT, BroadcastFilter.stream(Optional.of("write"),
                Optional.empty(), Optional.empty()), 4);
        assertThat(s.tenant()).isEqualTo(TENANT);
        assertThat(s.matches(event(1, "write"))).isTrue();
        assertThat(s.matches(event(2, "read"))).isFalse();
        s.offer(event(1, "write"));
        s.offer(event(3, "write"));
        assertThat(s.next(10)).map(BroadcastEvent::id).contains(1L);
        assertThat(s.next(10)).map(BroadcastEvent::id).contains(3L);
        assertThat(s.next(10)).isEmpty();
        assertThat(s.droppedBecause()).isEmpty();
    }

    @Test
    void aStreamFallingMoreThanItsBufferBehindIsDroppedAfterWhatItHeld() throws InterruptedException {
        BroadcastSubscription s = new BroadcastSubscription(TENANT, BroadcastFilter.ALL, 2);
        s.offer(event(1, "read"));
        s.offer(event(2, "read"));
        s.offer(event(3, "read")); // the buffer is full: the stream is dropped, this event is not kept
        assertThat(s.droppedBecause()).hasValueSatisfying(r -> assertThat(r).startsWith("slow consumer: more than 2 "
                + "events").contains("Last-Event-ID"));
        s.offer(event(4, "read")); // nothing is taken after the drop
        assertThat(s.next(1000)).map(BroadcastEvent::id).contains(1L);
        assertThat(s.next(1000)).map(BroadcastEvent::id).contains(2L);
        long t0 = System.nanoTime();
        assertThat(s.next(5000)).isEmpty(); // the end, at once: a dropped stream does not wait
        assertThat(System.nanoTime() - t0).isLessThan(1_000_000_000L);
    }

    @Test
    void aDroppedStreamTakesNothingMoreAndSaysWhy() throws InterruptedException {
        BroadcastSubscription s = new BroadcastSubscription(TENANT, BroadcastFilter.ALL, 2);
        s.drop("this server is shutting down");
        assertThat(s.droppedBecause()).contains("this server is shutting down");
        s.offer(event(1, "read"));
        assertThat(s.next(1000)).isEmpty();
        assertThat(s.droppedBecause()).contains("this server is shutting down");
    }
}
