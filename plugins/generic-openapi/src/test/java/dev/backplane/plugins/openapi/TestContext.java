package dev.backplane.plugins.openapi;

import dev.backplane.plugin.api.testkit.RecordingContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** The kit's {@link RecordingContext} with a clock tests can move and a timeout they can shorten. */
final class TestContext extends RecordingContext {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
    private final Duration timeout;

    TestContext() {
        this(Duration.ofSeconds(10));
    }

    TestContext(Duration timeout) {
        this.timeout = timeout;
    }

    void advance(Duration d) {
        now.updateAndGet(t -> t.plus(d));
    }

    @Override
    public Clock clock() {
        return new Clock() {
            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now.get();
            }
        };
    }

    @Override
    public Duration timeout() {
        return timeout;
    }
}
