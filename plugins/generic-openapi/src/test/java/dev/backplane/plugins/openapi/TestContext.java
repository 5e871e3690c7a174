package dev.backplane.plugins.openapi;

import dev.backplane.plugin.api.testkit.RecordingContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** The kit's {@link RecordingContext} with a clock tests can move and a timeout they can shorten. */
final class TestContext extends RecordingContext {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));

    TestContext() {
        this(Duration.ofSeconds(10));
    }

    TestContext(Duration timeout) {
        super(timeout);
    }

    void advance(Duration d) {
        now.updateAndGet(t -> t.plus(d));
    }

    /** Reads {@link #now} at every call, so a connector that keeps the clock sees each {@link #advance}. */
    @Override
    public Clock clock() {
        InstantSource moved = now::get;
        return moved.withZone(ZoneOffset.UTC);
    }
}
