package dev.backplane.kernel.audit.integrity;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Hands rows from the thread reading them to a thread checking them, in batches, so that reading (JDBC) and
 * hashing overlap on two cores. The checker sees the rows in order, on one thread. {@link #close} waits for it
 * and rethrows what it threw.
 */
final class Pipeline implements ChainStore.RowVisitor, AutoCloseable {

    private static final int BATCH = 1000;
    private static final List<AuditRecord> END = new ArrayList<>();
    private final BlockingQueue<List<AuditRecord>> queue = new ArrayBlockingQueue<>(8);
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
    private final Thread checker;
    private List<AuditRecord> batch = new ArrayList<>(BATCH);

    Pipeline(Consumer<AuditRecord> check) {
        checker = Thread.ofPlatform().name("audit-verify").daemon().start(() -> {
            try {
                for (List<AuditRecord> b = queue.take(); b != END; b = queue.take()) {
                    b.forEach(check);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure.compareAndSet(null, new IllegalStateException("audit verify interrupted"));
            } catch (RuntimeException e) {
                failure.compareAndSet(null, e);
            }
        });
    }

    @Override
    public void visit(AuditRecord row) {
        batch.add(row);
        if (batch.size() == BATCH) {
            hand(batch);
            batch = new ArrayList<>(BATCH);
        }
    }

    private void hand(List<AuditRecord> rows) {
        try {
            while (!queue.offer(rows, 100, TimeUnit.MILLISECONDS)) {
                if (failure.get() != null || !checker.isAlive()) {
                    throw failure.get() != null ? failure.get() : new IllegalStateException("audit verify stopped");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            checker.interrupt();
            throw new IllegalStateException("audit verify interrupted");
        }
    }

    @Override
    public void close() {
        if (!batch.isEmpty()) {
            hand(batch);
        }
        hand(END);
        try {
            checker.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            checker.interrupt();
            throw new IllegalStateException("audit verify interrupted");
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }
}
