package dev.backplane.kernel.events;

import dev.backplane.kernel.persistence.Jdbc;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Group commit of accepted deliveries: a delivery's request thread queues its event and waits; a few committer
 * threads each take what is queued (up to {@link #MAX_BATCH}) and write it in one transaction, so concurrent
 * deliveries share one commit and one disk flush. A request is answered only after its own event's commit has
 * returned: nothing is "accepted" that is not durable. Under light load a committer takes one event at a time and
 * nothing waits for a batch to fill; under heavy load batches grow by themselves.
 *
 * <p>Admission: the queue holds at most {@link #QUEUE} events. A delivery that finds it full is refused at once
 * ({@link Full}: 429 with Retry-After) instead of waiting behind a backlog that only grows, so a replica offered
 * more than it can store answers the excess quickly and keeps its latency bounded for the rest.
 *
 * <p>One event's data can fail the whole transaction (a NUL character escaped in JSON, which jsonb refuses;
 * a deadlock between two batches holding the same delivery ids): the committer then writes that batch's events one
 * by one, so only the event at fault fails, with its own error. A database that is down fails the batch's events
 * together, at once ({@link #oneEventsFault}).
 */
final class EventCommits implements AutoCloseable {

    /** Events one transaction writes at most. */
    static final int MAX_BATCH = 64;
    /** Events that may wait for a committer; more are refused. */
    static final int QUEUE = 512;
    /** Transactions in flight at once: one builds while another waits for its flush. */
    static final int COMMITTERS = 3;

    /** The queue is full: the delivery is refused, nothing was written. */
    static final class Full extends RuntimeException {
        Full() {
            super("the ingest queue is full", null, false, false);
        }
    }

    private record Pending(EventStore.NewEvent event, CompletableFuture<Boolean> written) {
    }

    private static final System.Logger LOG = System.getLogger(EventCommits.class.getName());

    private final EventStore store;
    private final ArrayBlockingQueue<Pending> queue;
    private final int capacity;
    private final List<Thread> committers = new ArrayList<>();
    private final AtomicLong transactions = new AtomicLong();
    private volatile boolean closed;

    /** {@link #COMMITTERS} committers, {@link #QUEUE} places. */
    EventCommits(EventStore store) {
        this(store, COMMITTERS, QUEUE);
    }

    EventCommits(EventStore store, int committerCount, int capacity) {
        this.store = store;
        this.capacity = capacity;
        this.queue = new ArrayBlockingQueue<>(capacity);
        for (int i = 0; i < committerCount; i++) {
            committers.add(Thread.ofVirtual().name("event-commit-" + i).start(this::run));
        }
    }

    /**
     * Writes {@code event} with whatever else is waiting and returns once its transaction has committed: true when
     * it was written, false when its source already had an event with its delivery id.
     *
     * @throws Full when {@link #capacity()} events are already waiting
     * @throws Jdbc.DataAccessException when the database refused or failed this event's write
     */
    boolean write(EventStore.NewEvent event) {
        Pending p = new Pending(event, new CompletableFuture<>());
        if (closed || !queue.offer(p)) {
            throw new Full();
        }
        try {
            return p.written().join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    /** Events waiting for a committer now. */
    int waiting() {
        return queue.size();
    }

    /** Events that may wait at once. */
    int capacity() {
        return capacity;
    }

    /** Transactions (or single auto-committed statements) written so far, retries of a failed batch included. */
    long transactions() {
        return transactions.get();
    }

    private void run() {
        List<Pending> batch = new ArrayList<>(MAX_BATCH);
        while (!closed || !queue.isEmpty()) {
            try {
                Pending first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH - 1);
                commit(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // commit() completes every event it was given; this is a bug, and the events must not hang
                LOG.log(System.Logger.Level.ERROR, "event commit failed unexpectedly", e);
                batch.forEach(p -> p.written().completeExceptionally(e));
            } finally {
                batch.clear();
            }
        }
    }

    private void commit(List<Pending> batch) {
        transactions.incrementAndGet();
        try {
            boolean[] written = store.insert(batch.stream().map(Pending::event).toList());
            for (int i = 0; i < written.length; i++) {
                batch.get(i).written().complete(written[i]);
            }
        } catch (RuntimeException e) {
            if (batch.size() == 1 || !oneEventsFault(e)) {
                // a database that is down or unreachable fails every event alike: no retries one by one
                batch.forEach(p -> p.written().completeExceptionally(e));
                return;
            }
            for (Pending p : batch) {
                commit(List.of(p));
            }
        }
    }

    /**
     * Whether the batch failed on something one of its events may have caused: data PostgreSQL refuses (class 22),
     * a constraint (23) or a deadlock or serialization failure with another batch (40). A connection that fails (08)
     * or a pool that has none to give is everyone's failure.
     */
    static boolean oneEventsFault(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                for (SQLException s = sql; s != null; s = s.getNextException()) {
                    String state = s.getSQLState();
                    if (state != null && (state.startsWith("22") || state.startsWith("23") || state.startsWith("40"))) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** Stops taking events; the committers write what is already queued, then end. */
    @Override
    public void close() {
        closed = true;
        for (Thread t : committers) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        Pending late;
        while ((late = queue.poll()) != null) { // offered as the committers ended: refused, nothing written
            late.written().completeExceptionally(new Full());
        }
    }
}
