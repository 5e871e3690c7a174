package dev.backplane.cli.memory;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.cli.common.CliException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;

/**
 * What {@code svc migrate memory --mark-migrated} recorded: per source directory and backplane, each
 * migrated file with the SHA-256 of its content. A later run skips a file whose content is unchanged;
 * an edited file is migrated again (updating its entry in place). Kept in the CLI's config directory,
 * so the agent's own memory files are never rewritten; deleting the ledger forgets the marks.
 *
 * @param file where the ledger is kept
 * @param root the ledger's JSON document, changed in place by {@link #mark} until {@link #save}
 */
record MigrationLedger(Path file, ObjectNode root) {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** The ledger of {@code source} under {@code configDir/migrated/}. */
    static MigrationLedger load(Path configDir, Path source) {
        Path file = configDir.resolve("migrated").resolve(LocalMemory.sha256(source.toAbsolutePath().normalize()
                .toString()).substring(0, 16) + ".json");
        ObjectNode root = JSON.createObjectNode();
        if (Files.isRegularFile(file)) {
            try {
                root = (ObjectNode) JSON.readTree(file.toFile());
            } catch (IOException | ClassCastException e) {
                throw CliException.failed("cannot read the migration ledger " + file + ": " + e.getMessage()
                        + " (delete it to start over)");
            }
        }
        root.put("source", source.toAbsolutePath().normalize().toString());
        return new MigrationLedger(file, root);
    }

    /** Whether {@code fileName} with this content was already migrated to {@code backplane}. */
    boolean migrated(String backplane, String fileName, String sha256) {
        return root.path("backplanes").path(backplane).path(fileName).path("sha256").asText("").equals(sha256);
    }

    void mark(String backplane, String fileName, String sha256, String entry) {
        ObjectNode b = root.withObjectProperty("backplanes").withObjectProperty(backplane);
        b.putObject(fileName).put("sha256", sha256).put("entry", entry).put("migrated_at", Instant.now().toString());
    }

    void save() {
        try {
            Files.createDirectories(file.getParent());
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            JSON.writeValue(tmp.toFile(), root);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw CliException.failed("cannot write the migration ledger " + file + ": " + e.getMessage());
        }
    }
}
