package dev.backplane.plugin.api;

import java.util.Locale;

/** Whether an operation answers with a set of rows (which the kernel may reduce) or one object. */
public enum ResultKind {
    /** A list of JSON objects. */
    SET,
    /** One JSON value. */
    OBJECT;

    /** The lower-case spelling used on every surface. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
