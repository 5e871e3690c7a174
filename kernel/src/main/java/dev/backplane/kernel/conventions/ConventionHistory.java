package dev.backplane.kernel.conventions;

import dev.backplane.kernel.conventions.ConventionStore.VersionRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A convention's history as {@link Conventions#history} answers it: each version with the fields it changed and
 * its body's unified diff against the version before (the first version: {@code created}, diffed against nothing).
 */
final class ConventionHistory {

    private ConventionHistory() {
    }

    /**
     * The first {@code limit} of {@code rows} (newest first) as versions; a row beyond the limit serves only as
     * the one before the oldest shown, so that one shows its changes rather than {@code created}.
     */
    static List<ConventionVersion> of(String slug, List<VersionRow> rows, int limit) {
        List<ConventionVersion> out = new ArrayList<>();
        for (int i = 0; i < Math.min(limit, rows.size()); i++) {
            VersionRow v = rows.get(i);
            Optional<VersionRow> prev = i + 1 < rows.size() ? Optional.of(rows.get(i + 1)) : Optional.empty();
            String from = prev.map(p -> "a/" + slug + " (version " + p.version() + ")").orElse("/dev/null");
            String diff = LineDiff.unified(prev.map(VersionRow::body).orElse(""), v.body(), from, "b/" + slug
                    + " (version " + v.version() + ")");
            out.add(new ConventionVersion(v.version(), v.by(), v.at(), v.title(), v.kind(), v.priority(),
                    changes(prev, v), diff));
        }
        return out;
    }

    /** The fields v changed against the version before; a body change is named, its content is in the diff. */
    static List<ConventionVersion.Change> changes(Optional<VersionRow> prev, VersionRow v) {
        List<ConventionVersion.Change> changes = new ArrayList<>();
        if (prev.isEmpty()) {
            changes.add(new ConventionVersion.Change("created", null, v.version()));
            return List.copyOf(changes);
        }
        VersionRow p = prev.get();
        if (!p.title().equals(v.title())) {
            changes.add(new ConventionVersion.Change("title", p.title(), v.title()));
        }
        if (!p.kind().equals(v.kind())) {
            changes.add(new ConventionVersion.Change("kind", p.kind(), v.kind()));
        }
        if (p.priority() != v.priority()) {
            changes.add(new ConventionVersion.Change("priority", p.priority(), v.priority()));
        }
        if (!p.body().equals(v.body())) {
            changes.add(new ConventionVersion.Change("body", null, null));
        }
        return List.copyOf(changes);
    }
}
