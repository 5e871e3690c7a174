package dev.backplane.kernel.retrieval;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.backplane.kernel.persistence.ChangeFeed;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The slices an index holds in memory, one per (partition, surface), kept current from the change
 * feed. The engine announces every write as {@code <partition>/<surface>/<entry>}; the next search of
 * a held slice has the index re-read just the changed entries ({@link SliceSource#patch}) instead of the
 * whole partition. A slice is read once however many searches ask for it at the same time, and read
 * whole again when too much of it has changed ({@link SliceSource#stale}). A key without an entry drops
 * the slice; a feed reset drops all; while the feed is down every search reads afresh. Changes to
 * slices neither held nor being read are not kept: a read starts after {@code pending} is cleared,
 * so it sees every change committed before it. Held slices are bounded by their estimated size
 * ({@link SliceSource#bytes}): past the budget the least used are dropped (and read again when next searched).
 *
 * @param <S> the index's slice
 */
final class SliceCache<S> {

    /**
     * A slice of more rows than this is never read while a search waits (100k chunks take seconds): it is read
     * in the background and searches answer from elsewhere meanwhile ({@link #ifReady}). Smaller slices read in
     * well under a second and a search waits for them, as for a held one.
     */
    static final long WAIT_MAX_ROWS = 20_000;

    /** The share of the heap each index's held slices may take together. */
    static final double HEAP_SHARE = 0.2;

    private final ChangeFeed feed;
    private final SliceSource<S> source;
    private final Cache<String, S> held;
    private final Map<String, S> slices;
    private final Map<String, CompletableFuture<S>> loading = new ConcurrentHashMap<>();
    private final Map<String, Set<UUID>> pending = new ConcurrentHashMap<>();
    /** Keys being read in the background: searches do not wait for them. */
    private final Set<String> background = ConcurrentHashMap.newKeySet();
    /** What it gave the change feed (the same instances are taken back by {@link #close}). */
    private final java.util.function.Consumer<String> onChange;
    private final Runnable onReset;

    SliceCache(ChangeFeed feed, SliceSource<S> source) {
        this(feed, source, (long) (Runtime.getRuntime().maxMemory() * HEAP_SHARE));
    }

    /** @param maxBytes the budget of all held slices together */
    SliceCache(ChangeFeed feed, SliceSource<S> source, long maxBytes) {
        this.feed = feed;
        this.source = source;
        // weights in KiB: an int weight then covers slices up to 2 TiB
        this.held = Caffeine.newBuilder().maximumWeight(Math.max(1, maxBytes / 1024))
                .weigher((String key, S slice) -> (int) Math.min(Integer.MAX_VALUE, Math.max(1, source.bytes(slice) / 1024)))
                .recordStats().build();
        this.slices = held.asMap();
        this.onChange = this::changed;
        this.onReset = () -> {
            pending.clear();
            slices.clear();
        };
        feed.subscribe(SliceChanges.TOPIC, onChange);
        feed.onReset(onReset);
    }

    /** Stops following the feed and drops every slice (a cache no search will read again). */
    void close() {
        feed.unsubscribe(SliceChanges.TOPIC, onChange, onReset);
        onReset.run();
    }

    /**
     * Reports hits and misses (of searches' lookups), evictions and the held weight as {@code cache_*} series named
     * {@code name}.
     */
    void meterInto(MeterRegistry registry, String name) {
        CaffeineCacheMetrics.monitor(registry, held, name);
    }

    /**
     * Removes the {@code cache_*} series named {@code name} (a registry keeps the first meter of a name and tags, so a
     * cache that replaces this one is reported only once these are gone).
     */
    void meterOutOf(MeterRegistry registry, String name) {
        List.copyOf(registry.getMeters()).stream().filter(m -> name.equals(m.getId().getTag("cache")))
                .forEach(registry::remove);
    }

    /** Drops what the cache's budget no longer allows now rather than at its next write (tests). */
    void cleanUp() {
        held.cleanUp();
    }

    /** The slice held for a partition of a surface, if any, without reading or patching it. */
    S held(UUID partition, String surface) {
        return slices.get(SliceChanges.key(partition, surface));
    }

    /** The slice as the database holds it now: cached and patched, or read. */
    S current(UUID partition, String surface) {
        if (!feed.live()) {
            return source.load(partition, surface);
        }
        String key = SliceChanges.key(partition, surface);
        S slice = slice(partition, surface, key);
        Set<UUID> changed = pending.remove(key);
        if (changed == null) {
            return slice;
        }
        S patched = source.patch(partition, surface, slice, changed);
        if (source.stale(patched)) {
            slices.remove(key, slice); // read whole again on the next search
        } else if (!slices.replace(key, slice, patched)) {
            slices.remove(key); // patched meanwhile by another search: read whole again rather than guess
        }
        return patched;
    }

    /**
     * The slice as {@link #current} gives it when a search need not wait long for it: held, or small enough to
     * read now (at most {@link #WAIT_MAX_ROWS} rows). A large slice not held yet is read in the background
     * instead and this answers empty until it is in, so the first search of a large partition on a fresh
     * replica is answered from elsewhere (the database's own ranking) rather than after a read of seconds.
     * While the feed is down every search reads afresh, as {@link #current} does.
     */
    Optional<S> ifReady(UUID partition, String surface) {
        String key = SliceChanges.key(partition, surface);
        if (!feed.live() || slices.containsKey(key)
                || !background.contains(key) && source.rows(partition, surface) <= WAIT_MAX_ROWS) {
            return Optional.of(current(partition, surface));
        }
        warm(partition, surface);
        return Optional.empty();
    }

    /**
     * Starts reading a slice in the background unless it is held or being read; done when it is held (or
     * the read failed: the next search tries again).
     */
    CompletableFuture<S> warm(UUID partition, String surface) {
        String key = SliceChanges.key(partition, surface);
        S cached = slices.get(key);
        if (cached != null) {
            return CompletableFuture.completedFuture(cached);
        }
        CompletableFuture<S> mine = new CompletableFuture<>();
        CompletableFuture<S> running = loading.putIfAbsent(key, mine);
        if (running != null) {
            return running;
        }
        background.add(key);
        Thread.ofVirtual().name("retrieval-warm-" + surface).start(() -> {
            try {
                read(partition, surface, key, mine);
            } catch (RuntimeException | Error e) {
                System.getLogger(SliceCache.class.getName()).log(Level.WARNING,
                        "retrieval: reading the " + surface + " slice of partition " + partition
                                + " in the background failed; the next search reads it: " + e);
            } finally {
                background.remove(key);
            }
        });
        return mine;
    }

    private S slice(UUID partition, String surface, String key) {
        S cached = held.getIfPresent(key); // the cache's own lookup: counted as a hit or a miss (the map view's is not)
        if (cached != null) {
            return cached;
        }
        CompletableFuture<S> mine = new CompletableFuture<>();
        CompletableFuture<S> running = loading.putIfAbsent(key, mine);
        if (running != null) {
            return Futures.joined(running);
        }
        return read(partition, surface, key, mine);
    }

    /** Reads a slice the caller has registered as {@code mine} in {@code loading}, and holds it. */
    private S read(UUID partition, String surface, String key, CompletableFuture<S> mine) {
        try {
            pending.remove(key); // what was pending is in what is read now
            S slice = source.hold(source.load(partition, surface));
            slices.put(key, slice);
            mine.complete(slice);
            return slice;
        } catch (RuntimeException | Error e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            loading.remove(key, mine);
        }
    }

    private void changed(String key) {
        SliceChanges.Change change = SliceChanges.parse(key);
        if (change.entry() == null) {
            pending.remove(change.slice());
            slices.remove(change.slice());
        } else if (slices.containsKey(change.slice()) || loading.containsKey(change.slice())) {
            pending.merge(change.slice(), Set.of(change.entry()), SliceChanges::union);
        }
    }
}
