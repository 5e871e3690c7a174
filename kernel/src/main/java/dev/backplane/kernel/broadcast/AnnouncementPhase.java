package dev.backplane.kernel.broadcast;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The phase of an announcement claim: each later phase of the same claim closes the earlier ones, and
 * a {@code completion} closes the claim itself.
 */
enum AnnouncementPhase {
    START, UPDATE, COMPLETION;

    String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether an announcement in this phase is stored already closed (the claim ends with it). */
    boolean closesClaim() {
        return this == COMPLETION;
    }

    /** The phase with exactly this wire name (case matters), if any. */
    static Optional<AnnouncementPhase> parse(String wire) {
        return Arrays.stream(values()).filter(p -> p.wireName().equals(wire)).findFirst();
    }
}
