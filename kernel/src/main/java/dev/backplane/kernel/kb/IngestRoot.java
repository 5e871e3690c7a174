package dev.backplane.kernel.kb;

import dev.backplane.kernel.errors.DomainException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The one host directory tree {@code svc kb ingest} may read (setting {@code kb.ingest-root}). A
 * request names a directory on the backplane host, so without a fence any tenant_admin could read
 * any file the kernel can; every path is resolved against the root, {@code ..} is refused outright,
 * and the real path (symbolic links followed) must still lie inside the root.
 */
public final class IngestRoot {

    /** The setting value that turns ingest off. */
    static final String OFF = "off";

    private final Optional<Path> root;

    IngestRoot(Optional<Path> root) {
        this.root = root.map(p -> p.toAbsolutePath().normalize());
    }

    /** Empty means {@code <dataDir>/kb-import}; {@code off} disables ingest. */
    public static IngestRoot fromSetting(String value, Path dataDir) {
        String v = value == null ? "" : value.trim();
        if (v.equalsIgnoreCase(OFF)) {
            return new IngestRoot(Optional.empty());
        }
        return new IngestRoot(Optional.of(v.isEmpty() ? dataDir.resolve("kb-import") : Path.of(v)));
    }

    /**
     * The real path of the directory a request names (absolute, or relative to the root).
     *
     * @throws DomainException 403 {@code kb_ingest_disabled}; 422 {@code directory_outside_ingest_root},
     *         {@code ingest_root_missing}, {@code directory_not_found} or {@code invalid_directory}
     */
    Path resolve(String requested) {
        Path base = root.orElseThrow(() -> KbErrors.KB_INGEST_DISABLED.error("kb ingest is turned off on "
                + "this backplane (kb.ingest-root is 'off')"));
        if (requested == null || requested.isBlank()) {
            throw KbErrors.INVALID_DIRECTORY.error("directory is required", Map.of("field", "directory"));
        }
        Path asked;
        try {
            asked = Path.of(requested.trim());
        } catch (InvalidPathException e) {
            throw KbErrors.INVALID_DIRECTORY.error("not a path: " + e.getMessage(),
                    Map.of("field", "directory"));
        }
        for (Path part : asked) {
            if (part.toString().equals("..")) {
                throw outside(requested, "'..' is not allowed in the directory");
            }
        }
        Path abs = (asked.isAbsolute() ? asked : base.resolve(asked)).normalize();
        if (!abs.startsWith(base)) {
            throw outside(requested, requested + " is not inside the ingest root");
        }
        if (!Files.isDirectory(base)) {
            throw KbErrors.INGEST_ROOT_MISSING.error("the ingest root " + base + " does not exist on the "
                    + "backplane host; create it (or set kb.ingest-root) and put the files below it",
                    Map.of("ingest_root", base.toString()));
        }
        if (!Files.isDirectory(abs)) {
            throw KbErrors.DIRECTORY_NOT_FOUND.error("no directory " + abs + " on the backplane host",
                    Map.of("field", "directory", "ingest_root", base.toString()));
        }
        Path real = realPath(abs);
        if (!real.startsWith(realRoot())) {
            throw outside(requested, requested + " leads through a symbolic link to " + real + ", outside the ingest root");
        }
        return real;
    }

    /** Whether a file (its links followed) lies inside the root. */
    boolean contains(Path file) {
        try {
            return file.toRealPath().startsWith(realRoot());
        } catch (IOException e) {
            return false;
        }
    }

    /** The root with its symbolic links resolved. */
    Path realRoot() {
        return realPath(root.orElseThrow());
    }

    Optional<Path> path() {
        return root;
    }

    private static Path realPath(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            throw KbErrors.DIRECTORY_NOT_FOUND.error("cannot read " + p + ": " + e.getMessage(),
                    Map.of("field", "directory"));
        }
    }

    private DomainException outside(String requested, String why) {
        return KbErrors.DIRECTORY_OUTSIDE_INGEST_ROOT.error(why + "; kb ingest reads only below "
                + root.orElseThrow() + " (setting kb.ingest-root)", Map.of("field", "directory", "directory", requested,
                "ingest_root", root.orElseThrow().toString()));
    }
}
