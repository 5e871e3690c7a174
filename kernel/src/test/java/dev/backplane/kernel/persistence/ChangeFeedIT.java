package dev.backplane.kernel.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.testing.ScratchDatabase;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The change feed on a real (embedded) PostgreSQL: what it tells its listeners when it closes. */
class ChangeFeedIT {

    @Test
    void closingResetsNoCache() throws Exception {
        Database db = ScratchDatabase.start("svc-change-feed");
        try {
            ChangeFeed feed = ChangeFeed.listening(db::dedicatedConnection, new Jdbc(db.dataSource()));
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (!feed.live()) {
                assertThat(System.nanoTime()).as("the feed is listening").isLessThan(deadline);
                Thread.sleep(10);
            }
            // a reset reloads what the cache holds from the database, which is closing with the kernel: a connector
            // registry's reload then failed and logged a warning at every stop
            AtomicInteger resets = new AtomicInteger();
            feed.onReset(resets::incrementAndGet);
            feed.close();
            assertThat(feed.awaitStopped(Duration.ofSeconds(10))).as("the listening thread ends").isTrue();
            assertThat(feed.live()).isFalse();
            assertThat(resets).as("no reset on the way out").hasValue(0);
        } finally {
            db.close();
        }
    }
}
