package dev.backplane.cli.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.ExitCodes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileTokenStoreTest {

    private static final String ACCESS = "eyJhbGciOiJSUzI1NiJ9.access-token-SECRET-aaaa";
    private static final String REFRESH = "eyJhbGciOiJIUzI1NiJ9.refresh-token-SECRET-bbbb";
    private static final String BACKPLANE = "https://backplane.example.com";

    @TempDir
    Path dir;

    private static Tokens tokens(String access, String refresh) {
        return new Tokens(access, refresh, Instant.parse("2030-01-02T03:04:05Z"),
                "https://kc.example.com/realms/svc/protocol/openid-connect/token", "svc-cli", "openid profile", true);
    }

    @Test
    void loadFromAbsentFileIsEmpty() {
        FileTokenStore store = new FileTokenStore(dir.resolve("tokens.json"));

        assertThat(store.load(BACKPLANE)).isEmpty();
        assertThat(dir.resolve("tokens.json")).doesNotExist();
    }

    @Test
    void saveThenLoadRoundTripsEveryField() {
        Path file = dir.resolve("svc/tokens.json");
        Tokens saved = tokens(ACCESS, REFRESH);

        new FileTokenStore(file).save(BACKPLANE, saved);

        assertThat(file).isRegularFile();
        Tokens loaded = new FileTokenStore(file).load(BACKPLANE).orElseThrow();
        assertThat(loaded).isEqualTo(saved);
        assertThat(loaded.accessToken()).isEqualTo(ACCESS);
        assertThat(loaded.refreshToken()).isEqualTo(REFRESH);
        assertThat(loaded.expiresAt()).isEqualTo(Instant.parse("2030-01-02T03:04:05Z"));
        assertThat(loaded.offline()).isTrue();
    }

    @Test
    void keepsBackplanesApartAndDeleteRemovesOnlyOne() {
        Path file = dir.resolve("tokens.json");
        FileTokenStore store = new FileTokenStore(file);
        Tokens a = tokens("access-a", "refresh-a");
        Tokens b = tokens("access-b", "refresh-b");
        store.save("https://a.example.com", a);
        store.save("https://b.example.com", b);

        assertThat(store.load("https://a.example.com")).contains(a);
        assertThat(store.load("https://b.example.com")).contains(b);

        store.delete("https://a.example.com");

        assertThat(store.load("https://a.example.com")).isEmpty();
        assertThat(new FileTokenStore(file).load("https://b.example.com")).contains(b);
    }

    @Test
    void saveReplacesTheEntryOfTheSameBackplane() {
        FileTokenStore store = new FileTokenStore(dir.resolve("tokens.json"));
        store.save(BACKPLANE, tokens("old-access", "old-refresh"));

        store.save(BACKPLANE, tokens("new-access", "new-refresh"));

        assertThat(store.load(BACKPLANE).orElseThrow().accessToken()).isEqualTo("new-access");
    }

    @Test
    void deleteOfUnknownBackplaneIsANoOp() {
        Path file = dir.resolve("tokens.json");
        FileTokenStore store = new FileTokenStore(file);

        store.delete(BACKPLANE);

        assertThat(file).doesNotExist();
    }

    @Test
    void fileIsOwnerReadWriteOnlyAfterSave() throws Exception {
        Path file = dir.resolve("tokens.json");

        new FileTokenStore(file).save(BACKPLANE, tokens(ACCESS, REFRESH));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void saveTightensAPreexistingWorldReadableFile() throws Exception {
        Path file = dir.resolve("tokens.json");
        Files.writeString(file, "{}");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));

        new FileTokenStore(file).save(BACKPLANE, tokens(ACCESS, REFRESH));

        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
        assertThat(PosixFilePermissions.toString(perms)).isEqualTo("rw-------");
    }

    @Test
    void saveLeavesNoTemporaryFileBehind() throws Exception {
        new FileTokenStore(dir.resolve("tokens.json")).save(BACKPLANE, tokens(ACCESS, REFRESH));

        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("tokens.json");
        }
    }

    @Test
    void garbageFileIsAFailureNamingThePath() throws Exception {
        Path file = dir.resolve("tokens.json");
        Files.writeString(file, "this is not json", StandardCharsets.UTF_8);

        CliException e = catchThrowableOfType(CliException.class, () -> new FileTokenStore(file).load(BACKPLANE));

        assertThat(e).isNotNull();
        assertThat(e.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(e.getMessage()).contains(file.toString());
    }

    @Test
    void describeNamesTheFile() {
        Path file = dir.resolve("tokens.json");

        assertThat(new FileTokenStore(file).describe()).contains(file.toString()).contains("0600");
    }

    @Test
    void tokensToStringNeverShowsTokenText() {
        String s = tokens(ACCESS, REFRESH).toString();

        assertThat(s).doesNotContain(ACCESS).doesNotContain(REFRESH)
                .doesNotContain("SECRET").doesNotContain("eyJ");
        assertThat(s).contains("svc-cli").contains("****");
    }
}
