package dev.backplane.kernel.persistence;

import java.lang.System.Logger.Level;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A lease a kernel holds on a row while it works on it (an asynchronous call, an agent run): the row carries
 * {@code lease_until}, the holder renews it every third of the lease's length, and a row whose lease lapsed unfinished
 * belongs to a kernel that died, which its capability's reaper fails (never re-runs: a governed write may not be safe
 * to repeat). The SQL of taking, renewing and reaping stays with the capability's table; this is the timing.
 *
 * @param length how long a row stays held without a renewal
 */
public record Lease(Duration length) {

    private static final System.Logger LOG = System.getLogger(Lease.class.getName());

    public Lease {
        Objects.requireNonNull(length, "length is null");
        if (length.isNegative() || length.isZero()) {
            throw new IllegalArgumentException("a lease must last longer than zero, got " + length);
        }
    }

    /** When a lease taken or renewed now ends. */
    public Timestamp untilFromNow() {
        return Timestamp.from(Instant.now().plus(length));
    }

    /** How often a holder renews: a third of the length (so two renewals may fail before it lapses), at least 100 ms. */
    public Duration renewEvery() {
        return Duration.ofMillis(Math.max(100, length.toMillis() / 3));
    }

    /** Writes a new {@code lease_until}; false when the row is no longer held (finished, handed off), ending renewals. */
    @FunctionalInterface
    public interface Renewal {
        boolean renew(Timestamp until);
    }

    /**
     * Renews the lease with {@code renewal} every {@link #renewEvery()} in a virtual thread named {@code name} until
     * the returned heartbeat is stopped or the renewal says the row is no longer held. A failed renewal (the database
     * unreachable for a moment) is logged and tried again at the next beat.
     */
    public Heartbeat keepAlive(String name, Renewal renewal) {
        long every = renewEvery().toMillis();
        Thread thread = Thread.ofVirtual().name(name).start(() -> {
            while (true) {
                try {
                    Thread.sleep(every);
                } catch (InterruptedException e) {
                    return;
                }
                try {
                    if (!renewal.renew(untilFromNow())) {
                        return;
                    }
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, name + ": lease not renewed (" + e.getMessage() + "); retrying");
                }
            }
        });
        return new Heartbeat(thread);
    }

    /** The renewals of one held row; {@link #stop()} when the work on it ends. */
    public static final class Heartbeat {
        private final Thread thread;

        private Heartbeat(Thread thread) {
            this.thread = thread;
        }

        /** Ends the renewals (the row's lease then runs out unless the holder releases it). */
        public void stop() {
            thread.interrupt();
        }

        /** Whether renewals still run (tests). */
        public boolean beating() {
            return thread.isAlive();
        }
    }
}
