package dev.backplane.kernel.retrieval;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

/**
 * What the change feed tells the {@link SliceCache}s: the engine announces every write on {@value #TOPIC} as
 * {@code <partition>/<surface>/<entry>}, a key naming a held slice and one of its entries (re-read just that
 * entry); a key without an entry drops the whole slice. A slice patched for too many entries is read whole again.
 */
final class SliceChanges {

    static final String TOPIC = "retrieval";
    /** A slice with more changed entries than this (or a tenth of its entries) is read whole again. */
    static final int MAX_CHANGED = 1_000;

    /** What a feed key names: a slice's key, and one changed entry of it (null: the whole slice changed). */
    record Change(String slice, UUID entry) {
    }

    private SliceChanges() {
    }

    /** A slice's key: its partition and surface. */
    static String key(UUID partition, String surface) {
        return partition + "/" + surface;
    }

    /** The feed key announcing a write to one entry of a slice. */
    static String entryKey(UUID partition, String surface, UUID entry) {
        return key(partition, surface) + "/" + entry;
    }

    /**
     * A feed key read back: {@code <slice>/<entry>} names an entry of a slice; anything else (a slice key,
     * a last part that is no UUID) names the key itself, whole.
     */
    static Change parse(String key) {
        int last = key.lastIndexOf('/');
        String slice = key.substring(0, Math.max(0, last));
        if (last > 0 && slice.indexOf('/') > 0) {
            try {
                return new Change(slice, UUID.fromString(key.substring(last + 1)));
            } catch (IllegalArgumentException e) {
                return new Change(key, null);
            }
        }
        return new Change(key, null);
    }

    /** Whether a patched slice should be called drifted: {@code changed} of {@code read} entries. */
    static boolean tooManyChanged(int changed, int read) {
        return changed > Math.max(MAX_CHANGED, read / 10);
    }

    /** Two sets of pending entries as one (immutable). */
    static Set<UUID> union(Set<UUID> a, Set<UUID> b) {
        Set<UUID> union = new HashSet<>(a);
        union.addAll(b);
        return Set.copyOf(union);
    }
}
