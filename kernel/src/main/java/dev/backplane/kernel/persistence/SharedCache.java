package dev.backplane.kernel.persistence;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * A read-through cache of database state kept correct across replicas by the {@link ChangeFeed}.
 * Keys are strings of {@code /}-separated parts (for example {@code tenant/connector}); a change
 * announced for a key drops that entry and every entry below it, so a writer may announce a whole
 * tenant's slice with its prefix. While the feed is not live, reads go straight to the loader.
 *
 * <p>An entry being loaded when its invalidation arrives is dropped once the load completes
 * (Caffeine blocks the invalidation on the in-flight load), so a load that read the old row cannot
 * survive the change.
 */
public final class SharedCache<V> {

    private final ChangeFeed feed;
    private final String topic;
    private final Cache<String, V> entries;

    /** Entries live at most the feed's {@link ChangeFeed#maxStale()}, the bound if a notification is lost. */
    public SharedCache(ChangeFeed feed, String topic, int maximumSize) {
        this(feed, topic, maximumSize, feed.maxStale());
    }

    public SharedCache(ChangeFeed feed, String topic, int maximumSize, Duration ttl) {
        this.feed = feed;
        this.topic = topic;
        this.entries = Caffeine.newBuilder().maximumSize(maximumSize).expireAfterWrite(ttl).build();
        feed.subscribe(topic, this::drop);
        feed.onReset(entries::invalidateAll);
    }

    public V get(String key, Supplier<V> loader) {
        if (!feed.live()) {
            return loader.get();
        }
        return entries.get(key, k -> loader.get());
    }

    /** Announces a committed change of {@code key} (and everything below it) to every replica. */
    public void changed(String key) {
        feed.changed(topic, key);
    }

    private void drop(String key) {
        entries.invalidate(key);
        String below = key + "/";
        entries.asMap().keySet().removeIf(k -> k.startsWith(below));
    }
}
