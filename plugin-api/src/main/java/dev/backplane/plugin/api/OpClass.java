package dev.backplane.plugin.api;

import java.util.Locale;

/** The class of an operation, recorded on every audit row. */
public enum OpClass {
    /** Reads state. */
    READ,
    /** Changes state. */
    WRITE,
    /** Reads secret material. */
    CREDENTIAL_READ,
    /** Anything else. */
    OTHER;

    /** The lower-case spelling used on every surface. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The class spelled exactly {@code wire} (lower case, as on every surface), if there is one. */
    public static java.util.Optional<OpClass> fromWireName(String wire) {
        for (OpClass c : values()) {
            if (c.wireName().equals(wire)) {
                return java.util.Optional.of(c);
            }
        }
        return java.util.Optional.empty();
    }

    /** Every class's wire name, in declaration order (what an error message lists). */
    public static java.util.List<String> wireNames() {
        return java.util.Arrays.stream(values()).map(OpClass::wireName).toList();
    }
}
