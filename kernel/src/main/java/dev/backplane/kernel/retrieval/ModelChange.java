package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.persistence.PeriodicJob;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A change of the embedding model ({@code retrieval.model}) while the kernel serves: searches go on with the active
 * model's vectors while the new model's are computed beside them in the background, and every replica moves to the
 * new model at once when no entry lacks them, so that no ranking ever mixes the two.
 *
 * <ol>
 *   <li>A kernel configured with another model than the database's active one makes it the target
 *   ({@link ModelStore#aim}); on an empty database it becomes active at once.</li>
 *   <li>Writers then embed every entry with both models: {@link RetrievalEngine#indexIn} reads the state on its
 *   own transaction, so a writer that prepared before the change began still writes the target's vectors.</li>
 *   <li>A periodic job (one replica at a time) walks the table once in key order and adds the target's vectors of
 *   each entry that lacks them, from the entry's text read on the same transaction.</li>
 *   <li>When none lacks them, the job makes the target active under the state row's lock and announces it on the
 *   change feed; each replica builds an index of the new vectors and serves it ({@link RetrievalEngine#serve}).</li>
 *   <li>A minute later (replicas that heard late still read the old rows meanwhile) the old model's rows go.</li>
 * </ol>
 *
 * An engine made for one model (tests, benches) is pinned: it reads and writes that model's vectors only.
 */
final class ModelChange {

    private static final System.Logger LOG = System.getLogger(ModelChange.class.getName());
    /** How long the previous model's rows stay after a switch (the kernel's; tests shorten it). */
    static final Duration RETIRE_AFTER = Duration.ofSeconds(60);
    /** Entries per fill transaction, and how long one run of the job may fill before it lets others run. */
    private static final int BATCH = 16;
    private static final Duration RUN_FOR = Duration.ofSeconds(20);

    private final Map<String, RetrievalEngine.EntryTexts> sources = new ConcurrentHashMap<>();
    private final java.util.Set<String> unknownSurfaces = ConcurrentHashMap.newKeySet();
    private volatile ModelStore.State state;
    private volatile ModelStore store;
    private volatile RetrievalEngine engine;
    /** The fill's place in its pass over the table (this replica's; a pass elsewhere starts afresh). */
    private ModelStore.Lacking cursor = ModelStore.START;
    private volatile long lacking = -1;
    private volatile Duration retireAfter = RETIRE_AFTER;
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private volatile boolean refreshAgain;

    private ModelChange(ModelStore.State state) {
        this.state = state;
    }

    static ModelChange pinned(String model) {
        return new ModelChange(new ModelStore.State(model, null));
    }

    /**
     * Follows the database's model state from now on: its changes on the feed, and on every feed reset; a retired
     * model's rows go {@code retireAfter} after the switch.
     */
    void follow(RetrievalEngine engine, ModelStore store, ModelStore.State now, Duration retireAfter) {
        this.retireAfter = retireAfter;
        this.engine = engine;
        this.store = store;
        this.state = now;
        engine.feed().subscribe(ModelStore.TOPIC, model -> refreshInBackground());
        engine.feed().onReset(this::refreshInBackground);
        now.filling().ifPresent(target -> LOG.log(Level.INFO, "retrieval: the embedding model changes from "
                + now.active() + " to " + target + "; searches use " + now.active() + " until every entry has "
                + target + "'s vectors (computed in the background)"));
    }

    void entryTexts(String surface, RetrievalEngine.EntryTexts texts) {
        sources.put(surface, texts);
    }

    /** The models a new entry is embedded with now (as far as this replica knows). */
    List<String> written() {
        return state.written();
    }

    /** The models a write on {@code c} must store, read on that transaction (and held until it commits). */
    List<String> writtenIn(Connection c) throws SQLException {
        if (store == null) {
            return state.written();
        }
        ModelStore.State now = ModelStore.stateForShare(c);
        if (!now.equals(state)) {
            refreshInBackground();
        }
        return now.written();
    }

    RetrievalEngine.ModelStatus status(String serving) {
        ModelStore.State s = state;
        return new RetrievalEngine.ModelStatus(serving, s.filling(), s.filling().isPresent() ? lacking : 0);
    }

    List<PeriodicJob> periodicJobs() {
        return store == null ? List.of()
                : List.of(new PeriodicJob("retrieval-model-change", Duration.ofSeconds(2), this::runOnce));
    }

    void close() {
        engine = null;
    }

    /**
     * Reads the state again on a background thread. One runs at a time: a burst of writes that all see a changed state
     * starts one refresh, and a request that comes while one runs makes it read once more.
     */
    private void refreshInBackground() {
        refreshAgain = true;
        if (!refreshing.compareAndSet(false, true)) {
            return;
        }
        Thread.ofVirtual().name("retrieval-model-refresh").start(() -> {
            try {
                while (refreshAgain && engine != null) {
                    refreshAgain = false;
                    refresh();
                }
            } catch (RuntimeException e) {
                if (engine != null) { // else closed meanwhile
                    LOG.log(Level.WARNING, "retrieval: reading the embedding model's state failed; searches keep the "
                            + "model they use: " + e);
                }
            } finally {
                refreshing.set(false);
            }
            if (refreshAgain && engine != null) {
                refreshInBackground(); // asked for between the loop's last check and the flag's reset
            }
        });
    }

    private synchronized ModelStore.State refresh() {
        RetrievalEngine e = engine;
        ModelStore.State now = store.state();
        state = now;
        if (e != null) {
            e.serve(now.active());
        }
        return now;
    }

    /** One run of the job: fill the target's vectors in (switching when complete), or drop a retired model's rows. */
    int runOnce() {
        ModelStore.State now = refresh();
        if (now.target() == null) {
            cursor = ModelStore.START;
            return store.deleteRetired(retireAfter, 5_000);
        }
        RetrievalEngine e = engine;
        if (e == null) {
            return 0;
        }
        Embedder target = e.embedder(now.target());
        long until = System.nanoTime() + RUN_FOR.toNanos();
        int filled = 0;
        while (System.nanoTime() < until) {
            List<ModelStore.Lacking> batch = store.lacking(now, cursor, BATCH);
            if (batch.isEmpty()) {
                Optional<ModelStore.State> switched = store.switchIfComplete(now);
                cursor = ModelStore.START; // complete: done; not complete (a late writer): another pass, next run
                if (switched.isPresent()) {
                    LOG.log(Level.INFO, "retrieval: every entry has " + now.target() + "'s vectors; searches use it now");
                    refresh();
                    lacking = 0;
                }
                break;
            }
            cursor = batch.getLast();
            int n = fill(now, target, batch);
            if (n < 0) {
                break; // a surface without texts: nothing more this run can do
            }
            filled += n;
        }
        if (filled > 0 && state.target() != null) {
            lacking = store.lackingCount(now);
        }
        return filled;
    }

    /**
     * Adds the target's vectors of a batch of entries, each surface's on one transaction; -1 when a surface has no
     * texts registered on this replica.
     */
    private int fill(ModelStore.State now, Embedder target, List<ModelStore.Lacking> batch) {
        Map<String, List<ModelStore.Lacking>> bySurface = new LinkedHashMap<>();
        batch.forEach(l -> bySurface.computeIfAbsent(l.surface(), s -> new ArrayList<>()).add(l));
        int filled = 0;
        for (Map.Entry<String, List<ModelStore.Lacking>> group : bySurface.entrySet()) {
            String surface = group.getKey();
            RetrievalEngine.EntryTexts texts = sources.get(surface);
            if (texts == null) {
                if (unknownSurfaces.add(surface)) {
                    LOG.log(Level.WARNING, "retrieval: no texts known for surface " + surface + "; its entries cannot "
                            + "get " + now.target() + "'s vectors, and the model cannot change until they do");
                }
                return -1;
            }
            Map<UUID, UUID> partitions = new LinkedHashMap<>();
            group.getValue().forEach(l -> partitions.put(l.entryId(), l.partition()));
            filled += store.fill(now, surface, partitions, texts, target::embedChunks);
        }
        return filled;
    }
}
