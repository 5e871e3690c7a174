package dev.backplane.kernel.kb;

import dev.backplane.kernel.errors.DomainException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The host directory tree {@code svc kb ingest} may read (setting {@code kb.ingest-root}), split into one
 * folder per tenant: {@code <root>/<tenant-id>/}, named by the tenant's id in its canonical lower-case form
 * (the only name a tenant has). A request names a directory on the backplane host, so without a fence any
 * tenant_admin could read any file the kernel can, or another tenant's staged files; every path is resolved
 * against the caller's tenant folder, {@code ..} is refused outright, and the real path (symbolic links
 * followed) must still lie inside that folder. A directory below the root but outside the caller's folder
 * (another tenant's, or the root itself) answers exactly as a missing directory does, so a request can
 * neither read nor probe for another tenant's files.
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

    /** The name of a tenant's folder below the root: its id, lower case. */
    public static String folderName(UUID tenant) {
        return tenant.toString();
    }

    /**
     * The folder of {@code tenant}, {@code <root>/<tenant-id>}.
     *
     * @throws DomainException 403 {@code kb_ingest_disabled} when the setting is {@code off}
     */
    Folder folder(UUID tenant) {
        Path base = root.orElseThrow(() -> KbErrors.KB_INGEST_DISABLED.error("kb ingest is turned off on "
                + "this backplane (kb.ingest-root is 'off')"));
        return new Folder(base, base.resolve(folderName(tenant)));
    }

    Optional<Path> path() {
        return root;
    }

    /** One tenant's part of the ingest root; everything a request of that tenant may read lies inside it. */
    static final class Folder {

        private final Path top;
        private final Path base;

        Folder(Path top, Path base) {
            this.top = top;
            this.base = base;
        }

        /**
         * The real path of the directory a request names (absolute, or relative to this folder).
         *
         * @throws DomainException 422 {@code directory_outside_ingest_root}, {@code ingest_root_missing},
         *         {@code directory_not_found} (also for any directory of another tenant) or {@code invalid_directory}
         */
        Path resolve(String requested) {
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
                if (abs.startsWith(top)) {
                    // another tenant's folder, or the root itself: the same answer as a directory that is not there
                    throw notFound(abs);
                }
                throw outside(requested, requested + " is not inside this tenant's kb ingest folder");
            }
            if (!Files.isDirectory(base)) {
                throw KbErrors.INGEST_ROOT_MISSING.error("this tenant's kb ingest folder " + base + " does not exist "
                        + "on the backplane host; create it (one folder per tenant below kb.ingest-root, named by the "
                        + "tenant id) and put the files below it", Map.of("ingest_root", base.toString()));
            }
            if (!Files.isDirectory(abs)) {
                throw notFound(abs);
            }
            Path real = realPath(abs);
            if (!real.startsWith(realBase())) {
                throw outside(requested, requested + " leads through a symbolic link out of this tenant's kb ingest "
                        + "folder");
            }
            return real;
        }

        /** Whether a file (its links followed) lies inside this folder. */
        boolean contains(Path file) {
            try {
                return file.toRealPath().startsWith(realBase());
            } catch (IOException e) {
                return false;
            }
        }

        /** The folder with its symbolic links resolved. */
        Path realBase() {
            return realPath(base);
        }

        Path path() {
            return base;
        }

        private DomainException notFound(Path abs) {
            return KbErrors.DIRECTORY_NOT_FOUND.error("no directory " + abs + " in this tenant's kb ingest folder "
                    + base, Map.of("field", "directory", "ingest_root", base.toString()));
        }

        private DomainException outside(String requested, String why) {
            return KbErrors.DIRECTORY_OUTSIDE_INGEST_ROOT.error(why + "; kb ingest reads only below " + base
                    + " (this tenant's folder of kb.ingest-root)", Map.of("field", "directory", "directory", requested,
                    "ingest_root", base.toString()));
        }

        private static Path realPath(Path p) {
            try {
                return p.toRealPath();
            } catch (IOException e) {
                throw KbErrors.DIRECTORY_NOT_FOUND.error("cannot read " + p + ": " + e.getMessage(),
                        Map.of("field", "directory"));
            }
        }
    }
}
