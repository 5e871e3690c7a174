package dev.backplane.kernel.topology;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * One version row of an edge, with its ends' kinds and names, and the rules of its next version: a new
 * edge's first row, the successor carrying new content, the removal marker, and what counts as a change.
 */
record EdgeRow(long versionId, UUID edgeId, UUID from, String fromKind, String fromName, String kind, UUID to,
               String toKind, String toName, String source, String origin, String note, String evidenceUrl,
               boolean conflict, boolean stale, String change, String changedBy, Instant validFrom,
               Instant validTo) {

    /** The first version of a new edge between two resolved nodes: change {@code created}, no conflict, not stale. */
    static EdgeRow created(EdgeWrites.Want w, String source, String origin, String note, String evidenceUrl,
                           String by, Instant at) {
        return new EdgeRow(0, UUID.randomUUID(), w.from().id(), w.from().kind(), w.from().name(), w.kind(),
                w.to().id(), w.to().kind(), w.to().name(), source, origin, note, evidenceUrl, false, false, "created",
                by, at, null);
    }

    /** The same edge's next version: new content, new change, not yet written. */
    EdgeRow next(String note, String evidenceUrl, boolean conflict, boolean stale, String change, String by,
                 Instant at) {
        return new EdgeRow(0, edgeId, from, fromKind, fromName, kind, to, toKind, toName, source, origin, note,
                evidenceUrl, conflict, stale, change, by, at, null);
    }

    /** The removal marker of this edge: its content kept, change {@code removed}, valid at no instant. */
    EdgeRow removal(String by, Instant at) {
        return new EdgeRow(0, edgeId, from, fromKind, fromName, kind, to, toKind, toName, source, origin, note,
                evidenceUrl, conflict, stale, "removed", by, at, at);
    }

    boolean sameContent(String otherNote, String otherEvidence, boolean otherStale) {
        return Objects.equals(note, otherNote) && Objects.equals(evidenceUrl, otherEvidence) && stale == otherStale;
    }

    /** A note or evidence URL as written: absent ({@code null}) keeps the current one, empty clears it. */
    static String kept(String given, String current) {
        return given == null ? current : given.isEmpty() ? null : given;
    }
}
