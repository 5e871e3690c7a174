package dev.backplane.kernel.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Database;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.ScratchDatabase;
import java.time.Instant;
import java.util.function.BooleanSupplier;

/**
 * A migrated embedded database with a listening change feed, for the retrieval indexes' tests that run
 * without a kernel: started, the feed live, closed together.
 */
record LiveDatabase(Database db, Jdbc jdbc, ChangeFeed feed) implements AutoCloseable {

    static LiveDatabase start(String prefix) throws Exception {
        Database db = ScratchDatabase.start(prefix);
        Jdbc jdbc = new Jdbc(db.dataSource());
        LiveDatabase live = new LiveDatabase(db, jdbc, ChangeFeed.listening(db::dedicatedConnection, jdbc));
        waitFor(live.feed()::live, "the change feed listens");
        return live;
    }

    /** Polls {@code condition} until it holds, failing after two minutes. */
    static void waitFor(BooleanSupplier condition, String what) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(120);
        while (!condition.getAsBoolean()) {
            assertThat(Instant.now()).as(what).isBefore(deadline);
            Thread.sleep(50);
        }
    }

    @Override
    public void close() {
        try {
            feed.close();
        } finally {
            db.close();
        }
    }
}
