package dev.backplane.kernel.topology;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.persistence.ChangeFeed;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The per-tenant in-memory graphs, loaded lazily on a tenant's first traversal and kept current: a
 * write on this replica applies its change to the graph after it commits; a write on another replica
 * arrives as a change-feed notification and drops the graph, which the next traversal reloads. While
 * the feed is not listening, a graph is trusted only for the feed's max-stale time.
 *
 * <p>Each tenant's holder carries a generation that {@link #drop} bumps without taking any lock (the
 * change feed's single listener thread must never wait on a traversal or a write). A reload installs
 * its graph only if the generation did not move while it read; a local write applies its change only
 * if the generation did not move since the write started and the write did not throw — otherwise it
 * forgets the graph, so the next traversal reloads the committed rows instead of trusting a graph that
 * may miss or misorder a change.
 */
final class TopologyGraphs {

    static final String TOPIC = "topology";

    /** One tenant's graph (null until loaded, or after a change it may not show) and its locks. */
    private static final class Holder {
        final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
        final ReentrantLock writers = new ReentrantLock();
        final AtomicLong generation = new AtomicLong();
        volatile TenantGraph graph;
        volatile Instant loadedAt;
    }

    private final TopologyStore store;
    private final ChangeFeed feed;
    private final String replica = UUID.randomUUID().toString();
    private final Map<UUID, Holder> holders = new ConcurrentHashMap<>();

    TopologyGraphs(TopologyStore store, ChangeFeed feed) {
        this.store = store;
        this.feed = feed;
        feed.subscribe(TOPIC, key -> {
            int cut = key.indexOf('/');
            if (cut > 0 && !key.substring(cut + 1).equals(replica)) {
                drop(UUID.fromString(key.substring(0, cut)));
            }
        });
        feed.onReset(() -> holders.keySet().forEach(this::drop));
    }

    /** Runs a traversal on the tenant's current graph, loading it first if needed. */
    <T> T read(UUID tenant, Function<TenantGraph, T> query) {
        Holder h = holders.computeIfAbsent(tenant, t -> new Holder());
        h.lock.readLock().lock();
        try {
            TenantGraph g = h.graph;
            if (fresh(g, h)) {
                return query.apply(g);
            }
        } finally {
            h.lock.readLock().unlock();
        }
        h.lock.writeLock().lock();
        try {
            TenantGraph g = h.graph;
            if (!fresh(g, h)) {
                long generation = h.generation.get();
                g = store.load(tenant);
                if (h.generation.compareAndSet(generation, generation + 1)) {
                    // bumped too: a local write that started before this load may be older than what it read
                    h.loadedAt = Instant.now();
                    h.graph = g;
                }
                // otherwise a change landed while loading: answer from this snapshot, reload next time
            }
            return query.apply(g);
        } finally {
            h.lock.writeLock().unlock();
        }
    }

    private boolean fresh(TenantGraph g, Holder h) {
        return g != null && (feed.live() || h.loadedAt.plus(feed.maxStale()).isAfter(Instant.now()));
    }

    /**
     * Runs a tenant's write: {@code write} commits its transaction and answers the change to apply to the
     * graph. The writer lock keeps this replica's own writes in commit order; the write lock on the graph
     * keeps a reload from interleaving with the change.
     */
    <T> T write(UUID tenant, java.util.function.Supplier<T> write, Function<T, Consumer<TenantGraph>> change) {
        Holder h = holders.computeIfAbsent(tenant, t -> new Holder());
        h.writers.lock();
        try {
            long generation = h.generation.get();
            T result;
            try {
                result = write.get();
            } catch (DomainException e) {
                throw e; // refused inside the transaction, which rolled back: nothing changed
            } catch (RuntimeException e) {
                forget(h); // the transaction may have committed on the server even though we saw an error
                throw e;
            }
            Consumer<TenantGraph> apply = change.apply(result);
            h.lock.writeLock().lock();
            try {
                TenantGraph g = h.graph;
                if (g != null && h.generation.get() == generation) {
                    try {
                        apply.accept(g);
                    } catch (RuntimeException e) {
                        h.graph = null; // reloaded from the committed rows by the next traversal
                    }
                } else {
                    h.graph = null;
                }
            } finally {
                h.lock.writeLock().unlock();
            }
            return result;
        } finally {
            h.writers.unlock();
        }
    }

    /** Tells the other replicas, inside the writer's transaction, that the tenant's graph changed. */
    void notifyIn(Connection c, UUID tenant) throws SQLException {
        ChangeFeed.notifyOnCommit(c, TOPIC, tenant + "/" + replica);
    }

    /** Forgets the tenant's graph without waiting for any lock (called on the change feed's thread). */
    private void drop(UUID tenant) {
        Holder h = holders.get(tenant);
        if (h != null) {
            forget(h);
        }
    }

    private static void forget(Holder h) {
        h.generation.incrementAndGet();
        h.graph = null;
    }
}
