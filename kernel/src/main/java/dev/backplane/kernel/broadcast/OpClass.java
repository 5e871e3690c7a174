package dev.backplane.kernel.broadcast;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The op classes the feed shows and filters on (an event's {@code op_class}, an announcement's planned one). */
enum OpClass {
    READ, WRITE, CREDENTIAL_READ, OTHER;

    /** The wire names, in order: what an error message lists. */
    static final List<String> WIRE_NAMES = Arrays.stream(values()).map(OpClass::wireName).toList();

    String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The class with exactly this wire name (case matters), if any. */
    static Optional<OpClass> parse(String wire) {
        return Arrays.stream(values()).filter(c -> c.wireName().equals(wire)).findFirst();
    }
}
