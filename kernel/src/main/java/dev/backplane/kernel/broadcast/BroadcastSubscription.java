package dev.backplane.kernel.broadcast;

import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One open stream of a {@link BroadcastHub}: the tenant and filter it was opened with, its bounded buffer
 * of events not yet sent, and why the hub dropped it (a slow consumer, a server shutting down) once it did.
 */
public final class BroadcastSubscription {

    private final UUID tenant;
    private final BroadcastFilter filter;
    private final BlockingQueue<BroadcastEvent> buffer;
    private volatile String droppedBecause;

    BroadcastSubscription(UUID tenant, BroadcastFilter filter, int capacity) {
        this.tenant = tenant;
        this.filter = filter;
        this.buffer = new ArrayBlockingQueue<>(capacity);
    }

    /** The next event, waiting at most {@code millis}; empty when none came or the stream was dropped. */
    public Optional<BroadcastEvent> next(long millis) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (droppedBecause == null) {
            long left = until - System.nanoTime();
            if (left <= 0) {
                return Optional.empty();
            }
            // in slices, so a drop (a slow consumer, a shutting-down server) ends a quiet stream within 250 ms
            BroadcastEvent e = buffer.poll(Math.min(left, TimeUnit.MILLISECONDS.toNanos(250)), TimeUnit.NANOSECONDS);
            if (e != null) {
                return Optional.of(e);
            }
        }
        return Optional.ofNullable(buffer.poll()); // what was buffered before the drop, then the end
    }

    /** Why the hub dropped this stream, if it did. */
    public Optional<String> droppedBecause() {
        return Optional.ofNullable(droppedBecause);
    }

    void offer(BroadcastEvent e) {
        if (droppedBecause == null && !buffer.offer(e)) {
            drop("slow consumer: more than " + buffer.size() + " events were waiting to be sent; reconnect with "
                    + "Last-Event-ID set to the last event you received (or page svc broadcast recent)");
        }
    }

    void drop(String reason) {
        droppedBecause = reason;
    }

    UUID tenant() {
        return tenant;
    }

    boolean matches(BroadcastEvent e) {
        return filter.matches(e);
    }
}
