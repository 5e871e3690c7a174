package dev.backplane.kernel.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.ScratchDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Group commit of accepted deliveries ({@link EventCommits}) on a real (embedded) PostgreSQL: concurrent events share
 * transactions and each still gets its own answer, an event PostgreSQL refuses fails alone, and a full queue refuses
 * at once while what it holds is written. A transaction left open on a delivery id holds a committer where a test
 * needs it held: the committer's insert of that id waits for it.
 */
class EventCommitsIT {

    private static final String[] SUBSCRIBERS = {"test.one", "test.two"};
    @RegisterExtension
    static final ScratchDatabase.PerClass DB = ScratchDatabase.perClass("svc-event-commits");
    private final EventSource source = TestEvents.source("commits");
    private final UUID tenant = source.tenantId();

    @Test
    void concurrentDeliveriesShareTransactionsAndEachGetsItsOwnAnswer() throws Exception {
        int n = 300;
        try (EventCommits commits = new EventCommits(new EventStore(DB.jdbc()));
             ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Boolean>> answers = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                // every tenth delivery repeats the one before it: one of the two is written, the other is a duplicate
                String delivery = "d-" + (i % 10 == 9 ? i - 1 : i);
                answers.add(threads.submit(() -> {
                    go.await();
                    return commits.write(event(delivery, "ok"));
                }));
            }
            go.countDown();
            int written = 0;
            for (Future<Boolean> a : answers) {
                written += a.get() ? 1 : 0;
            }
            assertThat(written).as("one per distinct delivery id").isEqualTo(n - n / 10);
            assertThat(commits.transactions()).as("deliveries shared transactions").isLessThan(n);
            assertThat(count("SELECT count(*) FROM events WHERE source_id = ?")).isEqualTo(n - n / 10);
            assertThat(count("SELECT count(*) FROM audit_rows a JOIN events e ON e.audit_id = a.id "
                    + "WHERE e.source_id = ?")).as("each event has its audit row").isEqualTo(n - n / 10);
            assertThat(count("SELECT count(*) FROM event_deliveries d JOIN events e ON e.id = d.event_id "
                    + "WHERE e.source_id = ?")).as("and a delivery row per subscriber")
                    .isEqualTo(2L * (n - n / 10));
        }
    }

    @Test
    void anEventPostgreSQLRefusesFailsAloneAndTheRestOfItsBatchIsWritten() throws Exception {
        try (EventCommits commits = new EventCommits(new EventStore(DB.jdbc()), 1, 16);
             ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            try (Gate gate = new Gate("gate-1")) {
                Future<Boolean> held = threads.submit(() -> commits.write(event("gate-1", "ok")));
                awaitHeld(commits, held);
                Future<Boolean> first = threads.submit(() -> commits.write(event("good-1", "ok")));
                Future<Boolean> bad = threads.submit(() -> commits.write(event("bad", "a\u0000b")));
                Future<Boolean> last = threads.submit(() -> commits.write(event("good-2", "ok")));
                await(() -> commits.waiting() == 3, "three events queued behind it");
                gate.release();
                assertThat(held.get()).isTrue();
                assertThat(first.get()).isTrue();
                assertThat(last.get()).isTrue();
                assertThatThrownBy(bad::get).hasCauseInstanceOf(Jdbc.DataAccessException.class)
                        .cause().cause().isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).startsWith("22"));
            }
            assertThat(count("SELECT count(*) FROM events WHERE source_id = ?")).isEqualTo(3);
            assertThat(DB.jdbc().queryOne("SELECT count(*) FROM events WHERE source_id = ? AND delivery_id = 'bad'",
                    rs -> rs.getLong(1), source.id()).orElseThrow()).isZero();
        }
    }

    @Test
    void aFullQueueRefusesAtOnceAndWritesWhatItHolds() throws Exception {
        try (EventCommits commits = new EventCommits(new EventStore(DB.jdbc()), 1, 2);
             ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            try (Gate gate = new Gate("gate-2")) {
                Future<Boolean> held = threads.submit(() -> commits.write(event("gate-2", "ok")));
                awaitHeld(commits, held);
                Future<Boolean> a = threads.submit(() -> commits.write(event("queued-1", "ok")));
                Future<Boolean> b = threads.submit(() -> commits.write(event("queued-2", "ok")));
                await(() -> commits.waiting() == 2, "the queue is full");
                long started = System.nanoTime();
                assertThatThrownBy(() -> commits.write(event("refused", "ok"))).isInstanceOf(EventCommits.Full.class);
                assertThat(Duration.ofNanos(System.nanoTime() - started)).as("refused without waiting")
                        .isLessThan(Duration.ofSeconds(1));
                gate.release();
                assertThat(List.of(held.get(), a.get(), b.get())).containsOnly(true);
            }
            assertThat(count("SELECT count(*) FROM events WHERE source_id = ?")).isEqualTo(3);
        }
    }

    @Test
    void closingWritesWhatIsQueuedAndThenRefuses() throws Exception {
        EventCommits commits = new EventCommits(new EventStore(DB.jdbc()), 1, 8);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<Boolean> queued;
            try (Gate gate = new Gate("gate-3")) {
                Future<Boolean> held = threads.submit(() -> commits.write(event("gate-3", "ok")));
                awaitHeld(commits, held);
                queued = threads.submit(() -> commits.write(event("queued", "ok")));
                await(() -> commits.waiting() == 1, "one event queued");
                Thread closer = Thread.ofVirtual().start(commits::close);
                gate.release();
                closer.join();
                assertThat(held.get()).isTrue();
            }
            assertThat(queued.get()).as("queued before the close: written").isTrue();
            assertThatThrownBy(() -> commits.write(event("late", "ok"))).isInstanceOf(EventCommits.Full.class);
        }
    }

    @Test
    void onlyAnEventsOwnFaultIsRetriedOneByOne() {
        assertThat(EventCommits.oneEventsFault(new Jdbc.DataAccessException(new SQLException("bad", "22P05")))).isTrue();
        java.sql.BatchUpdateException batch = new java.sql.BatchUpdateException("batch", "08006", new int[0]);
        assertThat(EventCommits.oneEventsFault(new Jdbc.DataAccessException(batch))).isFalse();
        batch.setNextException(new SQLException("deadlock detected", "40P01"));
        assertThat(EventCommits.oneEventsFault(new Jdbc.DataAccessException(batch))).isTrue();
        assertThat(EventCommits.oneEventsFault(new Jdbc.DataAccessException(new SQLException("gone", "08006"))))
                .as("a lost connection fails the batch at once").isFalse();
        assertThat(EventCommits.oneEventsFault(new IllegalStateException("pool closed"))).isFalse();
    }

    private EventStore.NewEvent event(String deliveryId, String note) {
        return TestEvents.event(source, deliveryId, note, SUBSCRIBERS);
    }

    private long count(String sql) {
        return DB.jdbc().queryOne(sql, rs -> rs.getLong(1), source.id()).orElseThrow();
    }

    /**
     * Until the committer has taken the gate's event (the only one offered so far, so the first transaction) and
     * waits on it. An empty queue alone would also be true before the event was offered at all.
     */
    private static void awaitHeld(EventCommits commits, Future<Boolean> held) throws InterruptedException {
        await(() -> commits.transactions() == 1 && commits.waiting() == 0 && !held.isDone(),
                "the committer waits on the gate");
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    /** An uncommitted event of this source with {@code deliveryId}: a committer writing the same id waits for it. */
    private final class Gate implements AutoCloseable {
        private final Connection c;

        Gate(String deliveryId) throws SQLException {
            c = DB.db().dataSource().getConnection();
            c.setAutoCommit(false);
            Jdbc.update(c, "INSERT INTO events (id, tenant_id, source_id, source_slug, kind, delivery_id, envelope, "
                    + "audit_id) VALUES (?, ?, ?, ?, 'generic-json', ?, '{}'::jsonb, ?)", UUID.randomUUID(), tenant,
                    source.id(), source.slug(), deliveryId, UUID.randomUUID());
        }

        /** Rolls the gate's event back: the waiting committer's insert goes ahead. */
        void release() throws SQLException {
            if (!c.isClosed()) {
                c.rollback();
                c.close();
            }
        }

        @Override
        public void close() throws SQLException {
            release();
        }
    }
}
