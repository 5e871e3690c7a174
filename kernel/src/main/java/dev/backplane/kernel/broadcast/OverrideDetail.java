package dev.backplane.kernel.broadcast;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** What an override shows of the calls it matches: every call an event, or one count per window. */
enum OverrideDetail {
    FULL, AGGREGATE;

    String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The detail with exactly this wire name (case matters), if any. */
    static Optional<OverrideDetail> parse(String wire) {
        return Arrays.stream(values()).filter(d -> d.wireName().equals(wire)).findFirst();
    }
}
