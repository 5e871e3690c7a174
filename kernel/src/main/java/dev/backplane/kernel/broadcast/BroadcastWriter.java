package dev.backplane.kernel.broadcast;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * The feed's writer: a bounded in-memory queue that one thread drains in batches into a {@link Sink}
 * (one transaction per batch; a batch gathers for up to {@link #LINGER} after its first activity, so under load
 * the feed's commits, each a disk flush, do not compete one per activity with the durable writes beside them).
 * While the database is down a batch is retried with backoff; when the database answers but a batch fails, a row
 * is bad, so the others are stored one by one and only what fails alone is dropped. Everything dropped is counted
 * and logged.
 */
final class BroadcastWriter implements AutoCloseable {

    /** Stores one batch, all or nothing; throws when it could not. */
    interface Sink {
        void store(List<Activity> batch);
    }

    private static final System.Logger LOG = System.getLogger(BroadcastFeed.class.getName());
    private static final int MAX_BATCH = 500;
    private static final int MAX_ATTEMPTS = 6;
    /** How long a batch waits for more after its first activity: the feed's readers see it this much later. */
    static final java.time.Duration LINGER = java.time.Duration.ofMillis(50);

    private final Sink sink;
    private final BooleanSupplier databaseAnswers;
    private final int capacity;
    private final BlockingQueue<Activity> queue;
    private final AtomicLong dropped = new AtomicLong();
    private volatile long lastDropLog;
    private volatile boolean closed;
    private final Thread thread;

    BroadcastWriter(Sink sink, BooleanSupplier databaseAnswers, int capacity) {
        this.sink = sink;
        this.databaseAnswers = databaseAnswers;
        this.capacity = capacity;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.thread = Thread.ofPlatform().daemon().name("broadcast-writer").start(this::writeLoop);
    }

    /** Queues an activity; never blocks and never throws (a full queue or a stopping writer drops it). */
    void offer(Activity activity) {
        if (closed || !queue.offer(activity)) {
            long n = dropped.incrementAndGet();
            long now = System.nanoTime();
            if (now - lastDropLog > TimeUnit.SECONDS.toNanos(10)) {
                lastDropLog = now;
                LOG.log(Level.WARNING, "broadcast feed: " + n + " activity events dropped so far (the writer's queue of "
                        + capacity + " is full or the kernel is stopping); the audit log still has every call");
            }
        }
    }

    /** Activities dropped since start. */
    long dropped() {
        return dropped.get();
    }

    private void writeLoop() {
        List<Activity> batch = new ArrayList<>(MAX_BATCH);
        while (!closed || !queue.isEmpty()) {
            try {
                Activity first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                gather(batch);
                writeWithRetry(batch);
            } catch (InterruptedException e) {
                if (closed) {
                    queue.drainTo(batch);
                    if (!batch.isEmpty()) {
                        writeWithRetry(batch);
                    }
                    return;
                }
            } finally {
                batch.clear();
            }
        }
    }

    /**
     * Adds what arrives within {@link #LINGER} of the first activity, up to {@link #MAX_BATCH}: under load one
     * transaction, and one disk flush, carries many activities instead of each taking its own.
     */
    private void gather(List<Activity> batch) throws InterruptedException {
        long until = System.nanoTime() + LINGER.toNanos();
        while (batch.size() < MAX_BATCH) {
            queue.drainTo(batch, MAX_BATCH - batch.size());
            long left = until - System.nanoTime();
            if (batch.size() >= MAX_BATCH || left <= 0) {
                return;
            }
            Activity next = queue.poll(left, TimeUnit.NANOSECONDS);
            if (next == null) {
                return;
            }
            batch.add(next);
        }
    }

    private void writeWithRetry(List<Activity> batch) {
        long backoff = 200;
        for (int attempt = 1; ; attempt++) {
            try {
                sink.store(batch);
                return;
            } catch (RuntimeException e) {
                if (databaseAnswers.getAsBoolean()) {
                    // the database is fine, so a row is bad: store the others, drop only what fails alone
                    storeOneByOne(batch);
                    return;
                }
                if (attempt >= MAX_ATTEMPTS || closed) {
                    dropped.addAndGet(batch.size());
                    LOG.log(Level.ERROR, "broadcast feed: " + batch.size() + " activity events not stored after "
                            + attempt + " attempts: " + e.getMessage());
                    return;
                }
                LOG.log(Level.WARNING, "broadcast feed: storing " + batch.size() + " events failed (" + e.getMessage()
                        + "); retrying in " + backoff + " ms");
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                }
                backoff = Math.min(5_000, backoff * 2);
            }
        }
    }

    private void storeOneByOne(List<Activity> batch) {
        for (Activity a : batch) {
            try {
                sink.store(List.of(a));
            } catch (RuntimeException e) {
                dropped.incrementAndGet();
                LOG.log(Level.ERROR, "broadcast feed: a " + a.kind().wireName() + " event could not be stored and was "
                        + "dropped: " + e.getMessage());
            }
        }
    }

    /** Stores what is queued, then stops the thread (waiting at most 5 seconds). */
    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
