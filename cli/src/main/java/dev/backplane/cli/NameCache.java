package dev.backplane.cli;

import dev.backplane.cli.common.CacheFile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The names shell completion fetched, kept for {@link #FRESH} per backplane, tenant and kind in the CLI's
 * {@code cache} directory (beside the operation catalog the family verbs keep), so that pressing TAB again does not
 * ask the backplane again. Names only: no token, no other field of the answer.
 */
final class NameCache {

    static final Duration FRESH = Duration.ofSeconds(30);

    private final CacheFile file;

    NameCache(Path configDir, String backplane, Optional<String> tenant, NameKind kind) {
        this.file = new CacheFile(configDir, "names-" + kind.word, backplane, tenant, ".txt", FRESH);
    }

    /** The cached names, if they are fresh. */
    Optional<List<String>> cached() {
        return file.read().map(text -> text.lines().toList());
    }

    /** Keeps {@code names} (best effort: a read-only disk only costs a fetch next time). */
    void keep(List<String> names) {
        file.write(names.isEmpty() ? "" : String.join("\n", names) + "\n");
    }

    Path file() {
        return file.path();
    }
}
