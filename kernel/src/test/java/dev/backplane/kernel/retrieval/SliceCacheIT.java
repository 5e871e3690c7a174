package dev.backplane.kernel.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The held slices are bounded by their estimated size: past the budget the least used are dropped and read again
 * when next searched, and the drops are counted; within the budget a slice is read once.
 */
class SliceCacheIT {

    @Test
    void slicesPastTheBudgetAreDroppedAndReadAgain() throws Exception {
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().setPGStartupWait(Duration.ofSeconds(60)).start();
             ChangeFeed feed = ChangeFeed.listening(() -> pg.getPostgresDatabase().getConnection(),
                     new Jdbc(pg.getPostgresDatabase()))) {
            Instant deadline = Instant.now().plusSeconds(20);
            while (!feed.live() && Instant.now().isBefore(deadline)) {
                Thread.sleep(20);
            }
            assertThat(feed.live()).isTrue();
            AtomicInteger loads = new AtomicInteger();
            // each slice weighs 400 KiB; the budget holds two
            SliceCache<String> cache = new SliceCache<>(feed, new SliceSource<>() {
                @Override
                public String load(UUID partition, String surface) {
                    loads.incrementAndGet();
                    return partition + "/" + surface;
                }

                @Override
                public String patch(UUID partition, String surface, String slice, Set<UUID> changed) {
                    return slice;
                }

                @Override
                public boolean stale(String patched) {
                    return false;
                }

                @Override
                public long bytes(String slice) {
                    return 400 * 1024;
                }
            }, 1024 * 1024);
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            cache.meterInto(registry, "test.slices");
            UUID a = UUID.randomUUID();
            UUID b = UUID.randomUUID();
            cache.current(a, "kb");
            cache.current(a, "kb");
            cache.current(b, "kb");
            cache.current(b, "kb");
            assertThat(loads).as("within the budget each slice is read once").hasValue(2);
            java.util.List<UUID> others = new java.util.ArrayList<>();
            for (int i = 0; i < 20; i++) {
                others.add(UUID.randomUUID());
                cache.current(others.getLast(), "kb");
            }
            cache.cleanUp();
            double evictions = registry.get("cache.evictions").tag("cache", "test.slices").functionCounter().count();
            assertThat(evictions).as("slices past the budget are dropped").isGreaterThanOrEqualTo(20);
            assertThat(registry.get("cache.size").tag("cache", "test.slices").gauge().value()).isLessThanOrEqualTo(2);
            // which slices the cache keeps is its policy's choice (frequency-aware: it may keep a and b and
            // drop the newcomers); at most two of the 22 fit, so reading all again reads at least 20 afresh
            int before = loads.get();
            cache.current(a, "kb");
            cache.current(b, "kb");
            others.forEach(p -> cache.current(p, "kb"));
            assertThat(loads.get() - before).as("dropped slices are read again").isGreaterThanOrEqualTo(20);
        }
    }
}
