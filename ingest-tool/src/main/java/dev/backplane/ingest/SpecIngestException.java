package dev.backplane.ingest;

import static java.util.Objects.requireNonNull;

/** A spec that cannot be ingested, with a code the kernel shows as {@code error} and a readable message. */
public final class SpecIngestException extends RuntimeException {

    /** Why. */
    public enum Reason {
        /** Cannot be read (missing file, unreachable URL, remote $ref refused). */
        SPEC_UNREADABLE,
        /** Over the size cap. */
        SPEC_TOO_LARGE,
        /** Not an OpenAPI 2.0 / 3.0 / 3.1 document, or has no operations. */
        SPEC_INVALID,
        /** info.version's major differs from the label's and no compatibility was declared (or it does not match). */
        SPEC_VERSION_MISMATCH;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final Reason reason;

    public SpecIngestException(Reason reason, String message) {
        super(message);
        this.reason = requireNonNull(reason, "reason is null");
    }

    public Reason reason() {
        return reason;
    }
}
