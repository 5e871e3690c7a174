package dev.backplane.kernel.broadcast;

import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The live side of the feed on one replica: every commit of feed events, on any replica, arrives as a
 * {@link ChangeFeed} notice naming the stream ids it wrote; the hub reads exactly those rows and hands
 * each to the streams of its tenant whose filter it matches. A notice is sent only when its rows are
 * committed, so nothing is read before it exists. When the listening connection is lost and back, the
 * hub catches up from the last id it delivered.
 *
 * <p>Each stream has a bounded buffer: a stream that falls that far behind is dropped with its reason
 * instead of letting memory grow (its client may reconnect with {@code Last-Event-ID}).
 */
public final class BroadcastHub implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(BroadcastHub.class.getName());
    private static final String CATCH_UP = "catch-up";
    private static final int RECENT_IDS = 100_000;
    private static final int CATCH_UP_MAX = 10_000;

    private final BroadcastQueryStore store;
    private final Map<UUID, List<BroadcastSubscription>> byTenant = new ConcurrentHashMap<>();
    private final BlockingQueue<String> notices = new LinkedBlockingQueue<>();
    private final Map<Long, Boolean> delivered = new LinkedHashMap<>(1024, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
            return size() > RECENT_IDS;
        }
    };
    /** Per tenant: the newest stream id handed out (a tenant's ids commit in order; see BroadcastStore#lockTenants). */
    private final Map<UUID, Long> lastDelivered = new ConcurrentHashMap<>();
    private final BroadcastSettings settings;
    private volatile boolean closed;
    private final Thread reader;

    public BroadcastHub(Jdbc jdbc, ChangeFeed feed, BroadcastSettings settings) {
        this.store = new BroadcastQueryStore(jdbc);
        this.settings = settings;
        feed.subscribe(BroadcastStore.TOPIC, notices::offer);
        feed.onReset(() -> notices.offer(CATCH_UP));
        this.reader = Thread.ofPlatform().daemon().name("broadcast-hub").start(this::readLoop);
    }

    /** Opens a stream of the tenant's events matching {@code filter}, from now on. */
    public BroadcastSubscription subscribe(UUID tenant, BroadcastFilter filter) {
        BroadcastSubscription s = new BroadcastSubscription(tenant, filter, settings.subscriberBuffer());
        List<BroadcastSubscription> subs = byTenant.computeIfAbsent(tenant, t -> new CopyOnWriteArrayList<>());
        synchronized (subs) {
            if (subs.size() >= settings.maxStreamsPerTenant()) {
                throw BroadcastErrors.TOO_MANY_STREAMS.error("this tenant already has " + subs.size() + " broadcast streams "
                        + "open on this server; close one first").withHeaders(Map.of("Retry-After", "30"));
            }
            if (subs.isEmpty()) {
                // the first stream of the tenant here: catch-up starts from what is committed now
                lastDelivered.put(tenant, store.newestId(tenant));
            }
            subs.add(s);
        }
        if (closed) {
            s.drop(STOPPING);
        }
        return s;
    }

    public void unsubscribe(BroadcastSubscription s) {
        List<BroadcastSubscription> subs = byTenant.get(s.tenant());
        if (subs != null) {
            subs.remove(s);
        }
    }

    /** How many streams are open on this replica. */
    public int open() {
        return byTenant.values().stream().mapToInt(List::size).sum();
    }

    private void readLoop() {
        while (!closed) {
            try {
                String notice = notices.take();
                if (notice.equals(CATCH_UP)) {
                    for (UUID tenant : watchedTenants()) {
                        catchUp(tenant);
                    }
                    continue;
                }
                UUID[] watched = watchedTenants();
                if (watched.length == 0) {
                    continue; // nobody is watching on this replica
                }
                int dash = notice.indexOf('-');
                long from = Long.parseLong(notice.substring(0, dash));
                long to = Long.parseLong(notice.substring(dash + 1));
                deliver(store.between(from, to, watched));
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "broadcast hub: reading feed events failed: " + e.getMessage());
            }
        }
    }

    /** After the listening connection was lost: what the tenant committed meanwhile, or a drop if too much. */
    private void catchUp(UUID tenant) {
        long after = lastDelivered.getOrDefault(tenant, 0L);
        List<BroadcastEvent> missed = store.after(tenant, BroadcastFilter.ALL, after, CATCH_UP_MAX + 1);
        if (missed.size() > CATCH_UP_MAX) {
            byTenant.getOrDefault(tenant, List.of()).forEach(s -> s.drop("the server missed more than " + CATCH_UP_MAX
                    + " events while reconnecting to the database; reconnect with Last-Event-ID set to the last event "
                    + "you received"));
            lastDelivered.put(tenant, missed.getLast().id());
            return;
        }
        deliver(missed);
    }

    private UUID[] watchedTenants() {
        return byTenant.entrySet().stream().filter(e -> !e.getValue().isEmpty()).map(Map.Entry::getKey)
                .toArray(UUID[]::new);
    }

    private void deliver(List<BroadcastEvent> events) {
        for (BroadcastEvent e : events) {
            if (delivered.put(e.id(), Boolean.TRUE) != null) {
                continue;
            }
            lastDelivered.merge(e.tenantId(), e.id(), Math::max);
            for (BroadcastSubscription s : byTenant.getOrDefault(e.tenantId(), List.of())) {
                if (s.matches(e)) {
                    s.offer(e);
                }
            }
        }
    }

    /** Tells every open stream the server is stopping. */
    @Override
    public void close() {
        closed = true;
        endStreams();
        reader.interrupt();
    }

    private static final String STOPPING = "this server is shutting down; reconnect (through the load balancer) with "
            + "Last-Event-ID set to the last event you received";

    /**
     * Ends every open stream, and every stream opened from now on, with a {@code dropped} event saying the
     * server is shutting down (graceful shutdown: the client reconnects to another replica and resumes).
     */
    public void endStreams() {
        closed = true;
        byTenant.values().forEach(subs -> subs.forEach(s -> s.drop(STOPPING)));
    }
}
