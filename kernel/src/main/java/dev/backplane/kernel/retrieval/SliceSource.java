package dev.backplane.kernel.retrieval;

import java.util.Set;
import java.util.UUID;

/**
 * How an index reads the slices its {@link SliceCache} holds: whole, patched entry by entry, and what one
 * weighs.
 *
 * @param <S> the index's slice
 */
interface SliceSource<S> {

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

    /** Whether a patched slice has drifted enough to be read whole again ({@link SliceChanges#tooManyChanged}). */
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
