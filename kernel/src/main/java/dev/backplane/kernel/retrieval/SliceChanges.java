package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.persistence.ChangeFeed;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Which entries of the slices an index holds in memory changed since the slice was read: the engine
 * announces every write on the change feed as {@code <partition>/<surface>/<entry>}; the index applies
 * the changed entries to its cached slice on its next search (reading just those rows) instead of
 * reading the whole partition again. A key without an entry drops the slice; a feed reset drops all.
 * Changes to slices the index neither holds nor is loading are not kept: a load reads the table after
 * {@link #clear}ing what was pending, so it sees every change committed before it.
 */
final class SliceChanges {

    static final String TOPIC = "retrieval";

    private final Map<String, Set<UUID>> pending = new ConcurrentHashMap<>();

    /**
     * @param held whether the index holds (or is loading) a slice, by key
     * @param drop drops one slice, by key
     * @param dropAll drops every slice
     */
    SliceChanges(ChangeFeed feed, Predicate<String> held, Consumer<String> drop, Runnable dropAll) {
        feed.subscribe(TOPIC, key -> {
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
                drop.accept(key);
            } else if (held.test(slice)) {
                UUID changed = entry;
                pending.merge(slice, Set.of(changed), (a, b) -> {
                    Set<UUID> union = new HashSet<>(a);
                    union.addAll(b);
                    return Set.copyOf(union);
                });
            }
        });
        feed.onReset(() -> {
            pending.clear();
            dropAll.run();
        });
    }

    static String key(UUID partition, String surface) {
        return partition + "/" + surface;
    }

    /** The feed key announcing a write to one entry of a slice. */
    static String entryKey(UUID partition, String surface, UUID entry) {
        return key(partition, surface) + "/" + entry;
    }

    /** The entries of a slice changed since the last take (and forgets them). */
    Set<UUID> take(String slice) {
        Set<UUID> changed = pending.remove(slice);
        return changed == null ? Set.of() : changed;
    }

    /** Before a slice is read whole: what was pending is in what will be read. */
    void clear(String slice) {
        pending.remove(slice);
    }
}
