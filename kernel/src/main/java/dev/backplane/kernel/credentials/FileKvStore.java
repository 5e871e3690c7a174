package dev.backplane.kernel.credentials;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.TreeMap;

/**
 * The embedded kv store used when no Vault is configured: one 0600 JSON file per secret_ref under
 * {@code <data.dir>/kv/}, in a 0700 directory tree, with the same path rules as Vault. No API ever
 * reads these files back to a caller; only dispatch uses them.
 */
public final class FileKvStore implements CredentialStore {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path root;

    public FileKvStore(Path root) {
        this.root = root.toAbsolutePath().normalize();
        try {
            Files.createDirectories(this.root);
            Files.setPosixFilePermissions(this.root, PosixFilePermissions.fromString("rwx------"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the kv store in " + this.root, e);
        }
    }

    private Path file(String ref) {
        Path p = root.resolve(ref + ".json").normalize();
        if (!p.startsWith(root) || ref.contains("..")) {
            throw StoreFailures.malformed(ref, "the path escapes the store");
        }
        return p;
    }

    @Override
    public Map<String, String> read(String ref) {
        Path f = file(ref);
        try {
            return JSON.readValue(Files.readAllBytes(f), new TypeReference<TreeMap<String, String>>() { });
        } catch (NoSuchFileException e) {
            throw StoreFailures.notFound(ref, "'" + ref + "' in the embedded kv store");
        } catch (IOException e) {
            throw StoreFailures.malformed(ref, "not a JSON object of string fields");
        }
    }

    @Override
    public void write(String ref, Map<String, String> fields) {
        Path f = file(ref);
        try {
            for (Path dir = f.getParent(); dir != null && dir.startsWith(root) && !dir.equals(root); dir = dir.getParent()) {
                if (!Files.isDirectory(dir)) {
                    Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                }
            }
            Files.createDirectories(f.getParent());
            Path tmp = Files.createTempFile(f.getParent(), ".secret", ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.write(tmp, JSON.writeValueAsBytes(new TreeMap<>(fields)));
            Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw StoreFailures.unavailable(describe(), "cannot write: " + e.getMessage());
        }
    }

    @Override
    public String describe() {
        return "embedded kv store in " + root;
    }
}
