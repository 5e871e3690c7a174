package dev.backplane.kernel.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Temporary directories and files for tests, deleted again: by {@link #delete} when the test is done with them (a
 * kernel's data directory when its class ends), and otherwise when the test JVM exits. A test run leaves nothing in
 * {@code java.io.tmpdir}; an embedded PostgreSQL's data directory alone is 40 MB, and a CI run starts about a hundred.
 */
public final class TempDirs {

    private static final Set<Path> CREATED = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> CREATED.forEach(TempDirs::deleteQuietly),
                "temp-dirs-cleanup"));
    }

    private TempDirs() {
    }

    /** A new directory in {@code java.io.tmpdir} whose name starts with {@code prefix}. */
    public static Path create(String prefix) {
        try {
            return remember(Files.createTempDirectory(prefix));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A new empty file in {@code java.io.tmpdir}. */
    public static Path file(String prefix, String suffix) {
        try {
            return remember(Files.createTempFile(prefix, suffix));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path remember(Path path) {
        CREATED.add(path);
        return path;
    }

    /** Deletes {@code path} and everything under it now; a failure is reported, not thrown (cleanup must not fail a test). */
    public static void delete(Path path) {
        CREATED.remove(path);
        deleteQuietly(path);
    }

    /**
     * Deletes {@code path}, trying again for up to five seconds: at the JVM's exit an embedded PostgreSQL may still be
     * writing its last files into the directory (its own shutdown hook runs beside this one).
     */
    private static void deleteQuietly(Path path) {
        for (int attempt = 1; ; attempt++) {
            try {
                deleteTree(path);
                return;
            } catch (IOException e) {
                if (attempt == 25) {
                    System.err.println("could not delete " + path + ": " + e);
                    return;
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE; // a server removed it while we walked (a socket, a pid file)
                }
                throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (e != null && !(e instanceof NoSuchFileException)) {
                    throw e;
                }
                Files.deleteIfExists(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
