package dev.backplane.kernel.events;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * Hands accepted events to the kernel's subscribers, at least once, from any replica. Each event gets
 * one delivery row per subscriber in its own ingest transaction; the drain takes due rows with
 * {@code FOR UPDATE SKIP LOCKED} (so replicas share the work and never take the same row), calls the
 * subscriber with the drain's connection, and marks the row delivered in that same transaction: what
 * a subscriber writes on that connection commits together with its acknowledgement, so a delivery it
 * acknowledged is never repeated, and one interrupted by a crash is repeated. A failing delivery is
 * retried with backoff (1 s doubling, up to 10 minutes; {@code failed} after {@value #MAX_ATTEMPTS}
 * attempts) without holding up other rows or subscribers. It reacts to new events at once (a local
 * wake-up, and {@code NOTIFY} from other replicas) and polls every {@value #POLL_SECONDS} s besides.
 */
public final class EventDrain implements AutoCloseable {

    /** An accepted event as subscribers get it. */
    public record Event(UUID id, UUID tenantId, UUID sourceId, String sourceSlug, String kind, String eventType,
                        JsonNode envelope, Instant receivedAt) {
    }

    /** A subscriber: called on the drain's transaction; throwing rolls its writes back and retries later. */
    @FunctionalInterface
    public interface Subscriber {
        void deliver(Connection c, Event event) throws Exception;
    }

    static final String TOPIC = "events.new";
    static final int MAX_ATTEMPTS = 12;
    static final int POLL_SECONDS = 5;
    private static final int BATCH = 32;
    /** Drain loops per replica: a full batch wakes the next one, so a burst is drained in parallel. */
    static final int WORKERS = 4;
    /** How long closing lets a batch in flight finish: a batch is a few deliveries, each a few statements. */
    static final Duration CLOSE_WAIT = Duration.ofSeconds(5);
    private static final System.Logger LOG = System.getLogger(EventDrain.class.getName());

    /** How long the other replicas' wake-up waits to cover the tenant's events committed meanwhile. */
    static final int ANNOUNCE_MILLIS = 10;

    private final EventStore store;
    private final ChangeFeed feed;
    /** Tenants whose wake-up to the other replicas is on its way. */
    private final Set<String> announcing = ConcurrentHashMap.newKeySet();
    private final Map<String, Subscriber> subscribers = new ConcurrentHashMap<>();
    private final Semaphore wake = new Semaphore(0);
    private final List<Thread> loops;
    private volatile boolean closed;
    private final Duration closeWait;

    public EventDrain(Jdbc jdbc, ChangeFeed feed) {
        this(jdbc, feed, CLOSE_WAIT);
    }

    /** @param closeWait how long {@link #close()} lets the batches in flight finish before it interrupts them */
    EventDrain(Jdbc jdbc, ChangeFeed feed, Duration closeWait) {
        this.closeWait = closeWait;
        this.store = new EventStore(jdbc);
        this.feed = feed;
        feed.subscribe(TOPIC, key -> wake());
        feed.onReset(this::wake);
        this.loops = IntStream.range(0, WORKERS)
                .mapToObj(i -> Thread.ofVirtual().name("event-drain-" + i).start(this::run)).toList();
    }

    /** Registers a subscriber; events accepted from now on are delivered to it. */
    public void subscribe(String name, Subscriber subscriber) {
        if (!name.matches("[a-z0-9][a-z0-9._-]{0,63}")) {
            throw new IllegalArgumentException("subscriber names are 1-64 of a-z 0-9 . _ -: " + name);
        }
        subscribers.put(name, subscriber);
    }

    /** The subscribers an event accepted now is delivered to. */
    String[] subscriberNames() {
        return subscribers.keySet().toArray(String[]::new);
    }

    /**
     * An event of {@code tenant} with deliveries was committed: this replica drains now, and the other replicas'
     * drains are woken by one {@code NOTIFY} per tenant per {@value #ANNOUNCE_MILLIS} ms. The notice is not part of
     * the ingest's transaction: PostgreSQL serializes the commits of transactions that {@code NOTIFY}, which with
     * every commit flushed to disk would hold ingest to one event per disk flush. A replica that dies before sending
     * it leaves the event to the others' next poll ({@value #POLL_SECONDS} s).
     */
    public void announce(UUID tenant) {
        wake();
        String key = tenant.toString();
        if (announcing.add(key)) {
            Thread.ofVirtual().name("event-announce").start(() -> {
                try {
                    Thread.sleep(ANNOUNCE_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                announcing.remove(key); // an event committed from here on schedules the next notice
                feed.changed(TOPIC, key);
            });
        }
    }

    /** Something may be due: drain now rather than at the next poll. */
    public void wake() {
        wake.release();
    }

    private void run() {
        while (!closed) {
            try {
                wake.tryAcquire(POLL_SECONDS, TimeUnit.SECONDS);
                wake.drainPermits(); // a burst of notices is one pass; full batches fan out below
                if (closed) {
                    return;
                }
                int handled;
                do {
                    handled = drainOnce();
                    if (handled == BATCH) {
                        wake.release(); // more is due: another loop takes the next batch alongside this one
                    }
                } while (!closed && handled > 0);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (closed) {
                    return; // interrupted by close(): the transaction rolled back and its deliveries are repeated later
                }
                LOG.log(Level.WARNING, "event drain: " + e.getMessage() + "; retrying");
                sleep();
            }
        }
    }

    /** One batch in one transaction; returns how many rows it handled. */
    int drainOnce() {
        String[] names = subscriberNames();
        if (names.length == 0) {
            return 0;
        }
        return store.inTransaction(c -> {
            List<EventStore.Due> due = EventStore.due(c, names, BATCH);
            List<EventStore.Due> delivered = new ArrayList<>(due.size());
            for (EventStore.Due d : due) {
                if (deliver(c, d.subscriber(), d.event(), d.attempts())) {
                    delivered.add(d);
                }
            }
            EventStore.delivered(c, delivered); // one statement for the batch, in its transaction
            return due.size();
        });
    }

    /** Whether the subscriber took the event; a failure is recorded as an attempt. */
    private boolean deliver(Connection c, String name, Event event, int attempts) throws SQLException {
        Subscriber s = subscribers.get(name);
        Savepoint before = c.setSavepoint();
        try {
            s.deliver(c, event);
            c.releaseSavepoint(before);
            return true;
        } catch (Exception e) {
            if (closed && (e instanceof InterruptedException || Thread.interrupted())) {
                // close() gave up waiting: the batch's transaction rolls back whole, nothing counts as an attempt (the
                // flag is cleared, so the rollback goes out on an intact connection)
                throw new CancellationException("the event drain is closing");
            }
            c.rollback(before);
            int n = attempts + 1;
            String error = String.valueOf(e.getMessage());
            LOG.log(Level.WARNING, "event " + event.id() + " to " + name + ": attempt " + n + " failed: " + error);
            EventStore.failed(c, name, event.id(), n, error.length() > 500 ? error.substring(0, 500) : error,
                    MAX_ATTEMPTS, backoffMillis(n) / 1000.0);
            return false;
        }
    }

    /** The wait before attempt {@code n + 1} after {@code n} failed attempts: 1 s doubling, at most 10 minutes. */
    static long backoffMillis(int n) {
        return Math.min(Duration.ofMinutes(10).toMillis(), 1000L << Math.min(20, n - 1));
    }

    private void sleep() {
        try {
            Thread.sleep(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops the loops. A loop between batches leaves at once; a batch in flight may finish and commit within
     * {@link #CLOSE_WAIT}, so a stop under load neither breaks its connection nor repeats what was delivered (an
     * interrupt closes a virtual thread's socket mid-statement). A batch still running then is interrupted: its
     * transaction rolls back and its deliveries stay due, for this replica's next start or another replica.
     */
    @Override
    public void close() {
        closed = true;
        wake.release(loops.size());
        long deadline = System.nanoTime() + closeWait.toNanos();
        try {
            for (Thread loop : loops) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !loop.join(Duration.ofNanos(left))) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        loops.stream().filter(Thread::isAlive).forEach(Thread::interrupt);
    }
}
