package dev.backplane.kernel.broadcast;

import java.util.Arrays;
import java.util.Optional;

/**
 * What an override is scoped on: nothing (an op-wide rule, wire name {@code ""}), the call's
 * {@code namespace}, or its target name.
 */
enum ScopeField {
    NONE(""), NAMESPACE("namespace"), TARGET_NAME("target_name");

    private final String wireName;

    ScopeField(String wireName) {
        this.wireName = wireName;
    }

    String wireName() {
        return wireName;
    }

    /** The activity's value of this field; always empty for {@link #NONE}. */
    Optional<String> valueIn(Activity a) {
        return switch (this) {
            case NAMESPACE -> a.namespace();
            case TARGET_NAME -> a.target();
            case NONE -> Optional.empty();
        };
    }

    /** The field with exactly this wire name, if any. */
    static Optional<ScopeField> parse(String wire) {
        return Arrays.stream(values()).filter(f -> f.wireName.equals(wire)).findFirst();
    }
}
