package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.persistence.ChangeFeed;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The slices an index holds in memory, one per (partition, surface), kept current from the change
 * feed. The engine announces every write as {@code <partition>/<surface>/<entry>}; the next search of
 * a held slice has the index re-read just the changed entries ({@link Source#patch}) instead of the
 * whole partition. A slice is read once however many searches ask for it at the same time, and read
 * whole again when too much of it has changed ({@link Source#stale}). A key without an entry drops
 * the slice; a feed reset drops all; while the feed is down every search reads afresh. Changes to
 * slices neither held nor being read are not kept: a read starts after {@code pending} is cleared,
 * so it sees every change committed before it. Held slices are bounded by their estimated size
 * ({@link Source#bytes}): past the budget the least used are dropped (and read again when next searched).
 *
 * @param <S> the index's slice
 */
final class SliceCache<S> {

    static final String TOPIC = "retrieval";
    /** A slice with more changed entries than this (or a tenth of its entries) is read whole again. */
    static final int MAX_CHANGED = 1_000;

    /** How an index reads its slices. */
    interface Source<S> {
        S load(UUID partition, String surface);

        /**
         * A freshly read slice as the cache will hold it: what only a slice kept for many searches is worth
         * (an index built over it) starts here, not in {@link #load}, which also serves one-off reads.
         */
        default S hold(S loaded) {
            return loaded;
        }

        /** The slice with {@code changed} entries re-read from the database (only their rows). */
        S patch(UUID partition, String surface, S slice, Set<UUID> changed);

        /** Whether a patched slice has drifted enough to be read whole again. */
        boolean stale(S patched);

        /** About how many bytes of heap the slice holds (what the cache's budget counts). */
        long bytes(S slice);

        /**
         * How many rows a read of the slice would take (one indexed count), so that a search knows before
         * reading whether it may wait for it; 0 (the default) for a source whose slices are always quick.
         */
        default long rows(UUID partition, String surface) {
            return 0;
        }
    }

    /**
     * A slice of more rows than this is never read while a search waits (100k chunks take seconds): it is read
     * in the background and searches answer from elsewhere meanwhile ({@link #ifReady}). Smaller slices read in
     * well under a second and a search waits for them, as for a held one.
     */
    static final long WAIT_MAX_ROWS = 20_000;

    /** The share of the heap each index's held slices may take together. */
    static final double HEAP_SHARE = 0.2;

    private final ChangeFeed feed;
    private final Source<S> source;
    private final Cache<String, S> held;
    private final Map<String, S> slices;
    private final Map<String, CompletableFuture<S>> loading = new ConcurrentHashMap<>();
    private final Map<String, Set<UUID>> pending = new ConcurrentHashMap<>();
    /** Keys being read in the background: searches do not wait for them. */
    private final Set<String> background = ConcurrentHashMap.newKeySet();

    SliceCache(ChangeFeed feed, Source<S> source) {
        this(feed, source, (long) (Runtime.getRuntime().maxMemory() * HEAP_SHARE));
    }

    /** @param maxBytes the budget of all held slices together */
    SliceCache(ChangeFeed feed, Source<S> source, long maxBytes) {
        this.feed = feed;
        this.source = source;
        // weights in KiB: an int weight then covers slices up to 2 TiB
        this.held = Caffeine.newBuilder().maximumWeight(Math.max(1, maxBytes / 1024))
                .weigher((String key, S slice) -> (int) Math.min(Integer.MAX_VALUE, Math.max(1, source.bytes(slice) / 1024)))
                .recordStats().build();
        this.slices = held.asMap();
        feed.subscribe(TOPIC, this::changed);
        feed.onReset(() -> {
            pending.clear();
            slices.clear();
        });
    }

    /** Reports hits, misses, evictions and the held weight as {@code cache_*} series named {@code name}. */
    void meterInto(io.micrometer.core.instrument.MeterRegistry registry, String name) {
        io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics.monitor(registry, held, name);
    }

    /** Drops what the cache's budget no longer allows now rather than at its next write (tests). */
    void cleanUp() {
        held.cleanUp();
    }

    static String key(UUID partition, String surface) {
        return partition + "/" + surface;
    }

    /** The feed key announcing a write to one entry of a slice. */
    static String entryKey(UUID partition, String surface, UUID entry) {
        return key(partition, surface) + "/" + entry;
    }

    /** Whether {@link #stale} should call a patched slice drifted: {@code changed} of {@code read} entries. */
    static boolean tooManyChanged(int changed, int read) {
        return changed > Math.max(MAX_CHANGED, read / 10);
    }

    /** The slice held for a partition of a surface, if any, without reading or patching it. */
    S held(UUID partition, String surface) {
        return slices.get(key(partition, surface));
    }

    /** The slice as the database holds it now: cached and patched, or read. */
    S current(UUID partition, String surface) {
        if (!feed.live()) {
            return source.load(partition, surface);
        }
        String key = key(partition, surface);
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
        String key = key(partition, surface);
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
        String key = key(partition, surface);
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
                System.getLogger(SliceCache.class.getName()).log(System.Logger.Level.WARNING,
                        "retrieval: reading the " + surface + " slice of partition " + partition
                                + " in the background failed; the next search reads it: " + e);
            } finally {
                background.remove(key);
            }
        });
        return mine;
    }

    private S slice(UUID partition, String surface, String key) {
        S cached = slices.get(key);
        if (cached != null) {
            return cached;
        }
        CompletableFuture<S> mine = new CompletableFuture<>();
        CompletableFuture<S> running = loading.putIfAbsent(key, mine);
        if (running != null) {
            return joined(running);
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

    /** A future's value, its failure rethrown as it was raised (not wrapped in a CompletionException). */
    static <S> S joined(CompletableFuture<S> running) {
        try {
            return running.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    private void changed(String key) {
        int last = key.lastIndexOf('/');
        String slice = key.substring(0, Math.max(0, last));
        UUID entry = null;
        if (last > 0 && slice.indexOf('/') > 0) {
            try {
                entry = UUID.fromString(key.substring(last + 1));
            } catch (IllegalArgumentException e) {
                entry = null;
            }
        }
        if (entry == null) {
            pending.remove(key);
            slices.remove(key);
        } else if (slices.containsKey(slice) || loading.containsKey(slice)) {
            pending.merge(slice, Set.of(entry), (a, b) -> {
                Set<UUID> union = new HashSet<>(a);
                union.addAll(b);
                return Set.copyOf(union);
            });
        }
    }
}
