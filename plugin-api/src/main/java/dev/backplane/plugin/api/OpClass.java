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
}
