package dev.backplane.kernel.retrieval;

import static java.util.Objects.requireNonNull;

import java.util.Set;
import java.util.UUID;

/**
 * Which entries of the searched partitions a search may return. A set rather than a predicate, so
 * that a vector index in the database can push it into its query instead of discarding hits after
 * the fact.
 */
public sealed interface Candidates {

    /** Every entry of the partitions. */
    record All() implements Candidates {
    }

    /** Only these entries (a metadata filter, the entries visible to the caller). */
    record Only(Set<UUID> ids) implements Candidates {
        public Only {
            requireNonNull(ids, "ids is null");
        }
    }

    /** Every entry of the partitions but these (the few a caller may not see in a partition it searches). */
    record Except(Set<UUID> ids) implements Candidates {
        public Except {
            requireNonNull(ids, "ids is null");
        }
    }

    static Candidates all() {
        return new All();
    }

    static Candidates only(Set<UUID> ids) {
        return new Only(ids);
    }

    static Candidates except(Set<UUID> ids) {
        return ids.isEmpty() ? all() : new Except(ids);
    }

    default boolean allows(UUID entryId) {
        return switch (this) {
            case All a -> true;
            case Only o -> o.ids().contains(entryId);
            case Except e -> !e.ids().contains(entryId);
        };
    }
}
