package dev.backplane.kernel.topology;

import dev.backplane.kernel.errors.DomainException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A curated edge as a caller writes it (annotate, one line of a bulk import): names of its ends with
 * optional kinds, the edge kind, and an optional note and evidence URL (SPEC: at most 2000 characters
 * each).
 */
public record EdgeInput(String from, String fromKind, String kind, String to, String toKind, String note,
                        String evidenceUrl) {

    /** Every problem of this edge (empty when it is valid), so a bulk import reports them all at once. */
    List<DomainException> problems() {
        List<DomainException> out = new ArrayList<>();
        check(out, () -> Vocabulary.nodeName(from, "from"));
        check(out, () -> Vocabulary.nodeName(to, "to"));
        check(out, () -> Vocabulary.edgeKind(kind));
        if (fromKind != null) {
            check(out, () -> Vocabulary.nodeKind(fromKind, "from_kind"));
        }
        if (toKind != null) {
            check(out, () -> Vocabulary.nodeKind(toKind, "to_kind"));
        }
        if (note != null && (note.length() > Vocabulary.MAX_TEXT || note.chars().anyMatch(ch -> ch < 0x20 && ch != '\n'
                && ch != '\t' && ch != '\r'))) {
            out.add(TopologyErrors.INVALID_EDGE.error("note must be at most " + Vocabulary.MAX_TEXT + " characters "
                    + "without control characters", Map.of("field", "note")));
        }
        if (evidenceUrl != null && !evidenceUrl.isEmpty() && !httpUrl(evidenceUrl)) {
            out.add(TopologyErrors.INVALID_EDGE.error("evidence_url must be an http(s) URL of at most "
                    + Vocabulary.MAX_TEXT + " characters, without user info (no credentials in links)",
                    Map.of("field", "evidence_url")));
        }
        return out;
    }

    NodeResolver.Ref fromRef() {
        return new NodeResolver.Ref(from, fromKind);
    }

    NodeResolver.Ref toRef() {
        return new NodeResolver.Ref(to, toKind);
    }

    private static boolean httpUrl(String text) {
        if (text.length() > Vocabulary.MAX_TEXT) {
            return false;
        }
        try {
            URI u = new URI(text);
            return ("http".equalsIgnoreCase(u.getScheme()) || "https".equalsIgnoreCase(u.getScheme()))
                    && u.getHost() != null && u.getRawUserInfo() == null;
        } catch (java.net.URISyntaxException e) {
            return false;
        }
    }

    private static void check(List<DomainException> out, Runnable check) {
        try {
            check.run();
        } catch (DomainException e) {
            out.add(e);
        }
    }
}
