package dev.backplane.kernel.persistence;

import java.time.Duration;
import java.util.Objects;
import java.util.function.IntSupplier;

/**
 * One piece of periodic work a capability offers (a sweep, a reaper, due triggers): its name, how long to wait
 * between runs, and what to run, which returns how many items it handled. The scheduler runs each on the shared
 * database, so several replicas never run one at the same time; the capability owns the rule of what it does.
 */
public record PeriodicJob(String name, Duration every, IntSupplier body) {

    public PeriodicJob {
        Objects.requireNonNull(name, "name is null");
        Objects.requireNonNull(every, "every is null");
        Objects.requireNonNull(body, "body is null");
        if (every.isNegative() || every.isZero()) {
            throw new IllegalArgumentException(name + ": a periodic job needs a delay above zero, got " + every);
        }
    }
}
