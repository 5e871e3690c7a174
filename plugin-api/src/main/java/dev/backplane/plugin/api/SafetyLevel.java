package dev.backplane.plugin.api;

import java.util.Locale;

/** How much harm an operation can do; the policy gate falls back on it when no grant decides. */
public enum SafetyLevel {
    /** Reads, or writes with no lasting effect. */
    SAFE,
    /** Changes state in a recoverable way. */
    CAUTION,
    /** Destroys or disrupts: deletes, restarts, credential changes. */
    DANGEROUS;

    /** The lower-case spelling used on every surface. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
