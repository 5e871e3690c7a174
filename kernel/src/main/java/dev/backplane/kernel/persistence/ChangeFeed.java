package dev.backplane.kernel.persistence;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Cache invalidation across replicas through PostgreSQL {@code LISTEN/NOTIFY}. A writer calls
 * {@link #changed(String, String)} after its write commits: subscribers on this replica are told at
 * once (before the writer answers its caller), and every other replica is told through one
 * {@code NOTIFY} on channel {@value #CHANNEL}, which a dedicated connection listens on.
 *
 * <p>Caches are only trusted while that connection is listening: {@link #live()} is false until the
 * first {@code LISTEN} succeeds and from the moment the connection fails until it is back, and every
 * subscriber is told to drop everything on both edges — a notification missed while disconnected can
 * never leave a stale entry behind. A cache consults {@code live()} and reads through to the database
 * when it is false.
 */
public final class ChangeFeed implements AutoCloseable {

    public static final String CHANNEL = "svc_changes";
    private static final System.Logger LOG = System.getLogger(ChangeFeed.class.getName());
    private static final char SEPARATOR = '\u001f';

    /** How a dedicated (non-pooled) connection is opened. */
    @FunctionalInterface
    public interface ConnectionSource {
        Connection open() throws SQLException;
    }

    private final ConnectionSource source;
    private final Jdbc jdbc;
    private final Map<String, List<Consumer<String>>> subscribers = new ConcurrentHashMap<>();
    private final List<Runnable> resets = new CopyOnWriteArrayList<>();
    private volatile boolean live;
    private volatile boolean closed;
    private final Thread listener;
    private final java.time.Duration maxStale;

    /** How long a cache entry may live when no one says otherwise (setting cache.max-stale-seconds). */
    public static final java.time.Duration DEFAULT_MAX_STALE = java.time.Duration.ofSeconds(15);

    private ChangeFeed(ConnectionSource source, Jdbc jdbc, boolean listen, java.time.Duration maxStale) {
        this.source = source;
        this.jdbc = jdbc;
        this.maxStale = maxStale;
        this.listener = listen ? Thread.ofPlatform().daemon().name("change-feed").start(this::listenLoop) : null;
    }

    /** A feed listening on its own connection; writes notify through the pool. */
    public static ChangeFeed listening(ConnectionSource source, Jdbc jdbc) {
        return listening(source, jdbc, DEFAULT_MAX_STALE);
    }

    /**
     * A feed listening on its own connection, whose caches hold an entry at most {@code maxStale}: the
     * bound on how long a replica can act on a stale value (a disabled connector, a paused source) when
     * a change notification is lost without the connection breaking (which resets every cache at once).
     */
    public static ChangeFeed listening(ConnectionSource source, Jdbc jdbc, java.time.Duration maxStale) {
        return new ChangeFeed(source, jdbc, true, maxStale);
    }

    /** A feed that is never live: every cache built on it reads through (tools, benches without a kernel). */
    public static ChangeFeed disabled() {
        return new ChangeFeed(null, null, false, DEFAULT_MAX_STALE);
    }

    /** The longest a cache on this feed keeps an entry. */
    public java.time.Duration maxStale() {
        return maxStale;
    }

    /**
     * The {@code NOTIFY} payload of a change, for a writer that notifies inside its own transaction
     * ({@code SELECT pg_notify(CHANNEL, payload(topic, key))}): delivered to every replica only if it commits.
     */
    public static String payload(String topic, String key) {
        return topic + SEPARATOR + key;
    }

    /** Announces a change from inside a writer's transaction: every replica hears it only if that commits. */
    public static void notifyOnCommit(java.sql.Connection c, String topic, String key) throws java.sql.SQLException {
        Jdbc.query(c, "SELECT pg_notify(?, ?)", rs -> 1, CHANNEL, payload(topic, key));
    }

    /** Whether caches may serve entries: the listening connection is up. */
    public boolean live() {
        return live;
    }

    /** Calls {@code onChange} with the key of every change on {@code topic}, local or from another replica. */
    public void subscribe(String topic, Consumer<String> onChange) {
        subscribers.computeIfAbsent(topic, t -> new CopyOnWriteArrayList<>()).add(onChange);
    }

    /** Calls {@code onReset} whenever the feed (re)connects or loses its connection: drop everything. */
    public void onReset(Runnable onReset) {
        resets.add(onReset);
    }

    /** Stops calling a subscriber and a reset listener (a cache that is dropped: the same instances as given). */
    public void unsubscribe(String topic, Consumer<String> onChange, Runnable onReset) {
        subscribers.computeIfPresent(topic, (t, list) -> {
            list.remove(onChange);
            return list;
        });
        resets.remove(onReset);
    }

    /**
     * Announces a committed change: local subscribers first (so the writer's next read on this
     * replica sees it), then the other replicas through {@code NOTIFY}. A failed {@code NOTIFY} is
     * logged; the database being unreachable for it also breaks the other replicas' listening
     * connections, which resets their caches.
     */
    public void changed(String topic, String key) {
        deliver(topic, key);
        if (jdbc == null) {
            return;
        }
        try {
            jdbc.queryOne("SELECT pg_notify(?, ?)", rs -> 1, CHANNEL, topic + SEPARATOR + key);
        } catch (Jdbc.DataAccessException e) {
            LOG.log(Level.WARNING, "cache invalidation could not be sent to other replicas (" + topic + "): "
                    + e.getMessage() + "; they hold entries at most until their own feed resets");
        }
    }

    private void deliver(String topic, String key) {
        for (Consumer<String> s : subscribers.getOrDefault(topic, List.of())) {
            s.accept(key);
        }
    }

    private void reset() {
        resets.forEach(Runnable::run);
    }

    private void listenLoop() {
        long backoff = 100;
        while (!closed) {
            try (Connection c = source.open()) {
                try (Statement s = c.createStatement()) {
                    s.execute("LISTEN " + CHANNEL);
                }
                PGConnection pg = c.unwrap(PGConnection.class);
                reset();
                live = true;
                backoff = 100;
                while (!closed) {
                    PGNotification[] batch = pg.getNotifications(1_000);
                    if (batch == null) {
                        continue;
                    }
                    for (PGNotification n : batch) {
                        String payload = n.getParameter();
                        int cut = payload.indexOf(SEPARATOR);
                        if (cut > 0) {
                            deliver(payload.substring(0, cut), payload.substring(cut + 1));
                        }
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (closed) {
                    break;
                }
                LOG.log(Level.WARNING, "change feed connection lost; caches read through until it is back: "
                        + e.getMessage());
            } finally {
                live = false;
                if (!closed) { // closing: the caches go with the kernel, and the database they would reload is closing
                    reset();
                }
            }
            sleep(backoff);
            backoff = Math.min(5_000, backoff * 2);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the listening thread has ended within {@code wait} (after {@link #close()}; true when there is none). */
    boolean awaitStopped(java.time.Duration wait) throws InterruptedException {
        return listener == null || listener.join(wait);
    }

    @Override
    public void close() {
        closed = true;
        live = false;
        if (listener != null) {
            listener.interrupt();
        }
    }
}
