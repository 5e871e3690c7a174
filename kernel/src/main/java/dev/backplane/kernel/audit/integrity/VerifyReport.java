package dev.backplane.kernel.audit.integrity;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * What verifying a tenant's chain (or an archive) found.
 *
 * @param ok no problem found
 * @param rowsChecked rows whose link was recomputed
 * @param rowsPerSecond how fast
 * @param sealsChecked seals compared with the chain (and, with a key, their signature checked)
 * @param sealsSigned whether the seal key was there to check signatures
 * @param pendingRows rows not chained yet because they are newer than the chain's watermark (normal lag)
 * @param problems what is wrong, in chain order, at most {@link #MAX_PROBLEMS}; the first is the first broken link
 * @param head the tenant's head seq and time as verified
 */
public record VerifyReport(UUID tenantId, boolean ok, long rowsChecked, long rowsPerSecond, long sealsChecked,
                           boolean sealsSigned, long pendingRows, List<Problem> problems, Optional<Long> headSeq,
                           Optional<Instant> headAt) {

    public static final int MAX_PROBLEMS = 100;

    /** Kinds of problem, as the report names them. */
    public enum Kind {
        /** the row's content no longer matches its link */
        ALTERED,
        /** rows of the chain are gone (deleted, or their partition dropped without an archive) */
        MISSING,
        /** a row that is not in the chain although the chain has passed its time */
        INSERTED,
        /** a row's time is before its predecessor's in the chain */
        REORDERED,
        /** the chain at a sealed position differs from the seal: the chain was recomputed after sealing */
        REWRITTEN,
        /** a seal whose signature does not verify with the seal key */
        FORGED_SEAL,
        /** an archive file whose bytes do not match its manifest */
        CORRUPT_ARCHIVE;

        @com.fasterxml.jackson.annotation.JsonValue
        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * One problem.
     *
     * @param seq the chain position where it shows (0 for a row not in the chain)
     * @param auditId the row it names, when there is one
     * @param occurredAt that row's time
     * @param detail what was expected and what was found
     */
    public record Problem(Kind kind, long seq, Optional<UUID> auditId, Optional<Instant> occurredAt, String detail) {
    }
}
