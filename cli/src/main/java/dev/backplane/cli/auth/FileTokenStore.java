package dev.backplane.cli.auth;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.backplane.cli.common.CliException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Tokens in a JSON file readable by its owner only (0600), for machines without a Secret Service. */
public final class FileTokenStore implements TokenStore {

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    private final Path file;

    public FileTokenStore(Path file) {
        this.file = file;
    }

    @Override
    public Optional<Tokens> load(String backplane) {
        return Optional.ofNullable(readAll().get(backplane));
    }

    @Override
    public void save(String backplane, Tokens tokens) {
        Map<String, Tokens> all = readAll();
        all.put(backplane, tokens);
        writeAll(all);
    }

    @Override
    public void delete(String backplane) {
        Map<String, Tokens> all = readAll();
        if (all.remove(backplane) != null) {
            writeAll(all);
        }
    }

    @Override
    public String describe() {
        return file + " (mode 0600)";
    }

    private Map<String, Tokens> readAll() {
        if (!Files.isRegularFile(file)) {
            return new LinkedHashMap<>();
        }
        try {
            return JSON.readValue(file.toFile(), new TypeReference<LinkedHashMap<String, Tokens>>() { });
        } catch (IOException e) {
            throw CliException.failed("cannot read token file " + file + " (" + e.getClass().getSimpleName()
                    + "); delete it and log in again");
        }
    }

    private void writeAll(Map<String, Tokens> all) {
        try {
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, ".tokens", ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            JSON.writeValue(tmp.toFile(), all);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (IOException e) {
            throw CliException.failed("cannot write token file " + file + ": " + e.getMessage());
        }
    }
}
