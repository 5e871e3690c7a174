package dev.backplane.kernel.topology;

import dev.backplane.kernel.persistence.ChangeFeed;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The per-tenant in-memory graphs, loaded lazily on a tenant's first traversal and kept current: a
 * write on this replica applies its change to the graph after it commits (under the tenant's writer
 * lock, so changes land in commit order); a write on another replica arrives as a change-feed
 * notification and drops the graph, which the next traversal reloads. While the feed is not
 * listening, a graph is trusted only for the feed's max-stale time.
 */
final class TopologyGraphs {

    static final String TOPIC = "topology";

    /** One tenant's graph (null until loaded, or after another replica changed it) and its lock. */
    private static final class Holder {
        final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
        final ReentrantLock writers = new ReentrantLock();
        TenantGraph graph;
        Instant loadedAt;
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
            if (fresh(h)) {
                return query.apply(h.graph);
            }
        } finally {
            h.lock.readLock().unlock();
        }
        h.lock.writeLock().lock();
        try {
            if (!fresh(h)) {
                h.graph = store.load(tenant);
                h.loadedAt = Instant.now();
            }
            return query.apply(h.graph);
        } finally {
            h.lock.writeLock().unlock();
        }
    }

    private boolean fresh(Holder h) {
        return h.graph != null && (feed.live() || h.loadedAt.plus(feed.maxStale()).isAfter(Instant.now()));
    }

    /**
     * Runs a tenant's write: {@code write} commits its transaction and answers the change to apply to the
     * graph; holding the tenant's writer lock across both keeps this replica's graph in commit order.
     */
    <T> T write(UUID tenant, java.util.function.Supplier<T> write, Function<T, Consumer<TenantGraph>> change) {
        Holder h = holders.computeIfAbsent(tenant, t -> new Holder());
        h.writers.lock();
        try {
            T result = write.get();
            Consumer<TenantGraph> apply = change.apply(result);
            h.lock.writeLock().lock();
            try {
                if (h.graph != null) {
                    try {
                        apply.accept(h.graph);
                    } catch (RuntimeException e) {
                        h.graph = null; // reloaded from the committed rows by the next traversal
                    }
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

    private void drop(UUID tenant) {
        Holder h = holders.get(tenant);
        if (h == null) {
            return;
        }
        h.lock.writeLock().lock();
        try {
            h.graph = null;
        } finally {
            h.lock.writeLock().unlock();
        }
    }
}
