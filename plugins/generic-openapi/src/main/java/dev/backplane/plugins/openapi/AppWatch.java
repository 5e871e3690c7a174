package dev.backplane.plugins.openapi;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Polls an Argo CD application until its operation settles, with exponential backoff (1 s, doubling,
 * capped at 10 s) bounded by a deadline: the wait behind the sync-and-wait and rollback-and-wait
 * composites. It sleeps between polls (never spins), never sleeps past the deadline, and stops as soon as
 * the call is cancelled.
 */
final class AppWatch {

    static final Duration FIRST_DELAY = Duration.ofSeconds(1);
    static final Duration MAX_DELAY = Duration.ofSeconds(10);

    /** Waits; production sleeps the thread, tests move a clock. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    /** How a watch ended; {@code polls} counts the GETs made. */
    sealed interface Outcome {
        int polls();

        ArgoAppState last();

        /** The operation succeeded and the application is where the wait wanted it. */
        record Settled(ArgoAppState last, int polls) implements Outcome {
        }

        /** The operation failed or the application is Degraded. */
        record Failed(ArgoAppState last, int polls) implements Outcome {
        }

        /** The deadline passed first. */
        record TimedOut(ArgoAppState last, int polls) implements Outcome {
        }

        /** The caller cancelled the call. */
        record Cancelled(ArgoAppState last, int polls) implements Outcome {
        }
    }

    private final Clock clock;
    private final Sleeper sleeper;
    private final BooleanSupplier cancelled;

    AppWatch(Clock clock, Sleeper sleeper, BooleanSupplier cancelled) {
        this.clock = requireNonNull(clock, "clock is null");
        this.sleeper = requireNonNull(sleeper, "sleeper is null");
        this.cancelled = requireNonNull(cancelled, "cancelled is null");
    }

    /** The pause before poll number {@code n} (0-based) after the first: 1 s, 2 s, 4 s, 8 s, then 10 s. */
    static Duration delay(int n) {
        Duration d = FIRST_DELAY.multipliedBy(1L << Math.min(n, 4));
        return d.compareTo(MAX_DELAY) > 0 ? MAX_DELAY : d;
    }

    /**
     * Polls with {@code poll} (which throws when a poll fails) until the state settles or fails, the
     * deadline passes or the call is cancelled. The first poll is made after the first delay: the
     * controller has not picked up an operation requested a moment ago.
     */
    Outcome watch(Supplier<ArgoAppState> poll, Instant deadline, ArgoAppState.Until until) {
        ArgoAppState last = new ArgoAppState(true, "", "", "", "", "", java.util.List.of());
        int polls = 0;
        for (int n = 0; ; n++) {
            Duration left = Duration.between(clock.instant(), deadline);
            if (cancelled.getAsBoolean()) {
                return new Outcome.Cancelled(last, polls);
            }
            if (left.isNegative() || left.isZero()) {
                return new Outcome.TimedOut(last, polls);
            }
            Duration pause = delay(n);
            try {
                sleeper.sleep(pause.compareTo(left) < 0 ? pause : left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Outcome.Cancelled(last, polls);
            }
            if (cancelled.getAsBoolean()) {
                return new Outcome.Cancelled(last, polls);
            }
            last = poll.get();
            polls++;
            if (last.failed(until)) {
                return new Outcome.Failed(last, polls);
            }
            if (last.settled(until)) {
                return new Outcome.Settled(last, polls);
            }
        }
    }
}
