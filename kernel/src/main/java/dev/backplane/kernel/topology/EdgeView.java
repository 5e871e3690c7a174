package dev.backplane.kernel.topology;

import java.time.Instant;
import java.util.UUID;

/**
 * An edge version as every surface shows it (SPEC's fields: from, kind, to, source, note, evidence_url,
 * conflict flag), with its ends' kinds, staleness, the change that made this version, who made it and
 * when it held ({@code valid_to} null: it holds now). {@code discovered_by} is the target id whose
 * refresh saw an auto edge.
 */
public record EdgeView(UUID edgeId, String from, String fromKind, String kind, String to, String toKind, String source,
                       String discoveredBy, String note, String evidenceUrl, boolean conflict, boolean stale,
                       String change, String changedBy, Instant validFrom, Instant validTo, long version) {

    static EdgeView of(EdgeRow r) {
        return new EdgeView(r.edgeId(), r.fromName(), r.fromKind(), r.kind(), r.toName(), r.toKind(), r.source(),
                r.origin().isEmpty() ? null : r.origin(), r.note(), r.evidenceUrl(), r.conflict(), r.stale(), r.change(),
                r.changedBy(), r.validFrom(), r.validTo(), r.versionId());
    }
}
