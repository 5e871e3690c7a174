package dev.backplane.cli.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CliConfigTest {

    @TempDir
    Path dir;

    private static CliConfig.Backplane entry(String issuer, List<String> resolve, boolean http) {
        return new CliConfig.Backplane(issuer, "svc-cli", issuer + "/protocol/openid-connect/token", resolve, http);
    }

    @Test
    void absentFileLoadsEmpty() {
        CliConfig c = CliConfig.load(dir.resolve("nope/config.json"));

        assertThat(c.latest()).isEmpty();
        assertThat(c.backplane("https://a.example.com")).isEmpty();
    }

    @Test
    void saveThenLoadRoundTrips() {
        Path file = dir.resolve("svc/config.json");
        CliConfig c = new CliConfig();
        CliConfig.Backplane a = entry("https://kc.example.com/realms/svc", List.of("kc.example.com:443:10.0.0.7"), false);
        CliConfig.Backplane b = entry("http://127.0.0.1:8180/realms/svc", List.of(), true);
        c.remember("https://a.example.com", a);
        c.remember("http://127.0.0.1:8080", b);

        c.save(file);
        CliConfig loaded = CliConfig.load(file);

        assertThat(loaded.backplane("https://a.example.com")).contains(a);
        assertThat(loaded.backplane("http://127.0.0.1:8080")).contains(b);
        assertThat(loaded.backplane("http://127.0.0.1:8080").orElseThrow().insecureAllowHttp()).isTrue();
        assertThat(loaded.backplane("https://a.example.com").orElseThrow().resolve())
                .containsExactly("kc.example.com:443:10.0.0.7");
        assertThat(loaded.latest()).contains("http://127.0.0.1:8080");
    }

    @Test
    void latestIsTheLastRememberedBackplane() {
        CliConfig c = new CliConfig();
        c.remember("https://a.example.com", entry("https://kc/a", List.of(), false));
        c.remember("https://b.example.com", entry("https://kc/b", List.of(), false));
        assertThat(c.latest()).contains("https://b.example.com");

        c.remember("https://a.example.com", entry("https://kc/a2", List.of(), false));

        assertThat(c.latest()).contains("https://a.example.com");
        assertThat(c.backplane("https://a.example.com").orElseThrow().issuer()).isEqualTo("https://kc/a2");
        assertThat(c.backplane("https://b.example.com")).isPresent();
    }

    @Test
    void latestSurvivesSaveAndLoad() {
        Path file = dir.resolve("config.json");
        CliConfig c = new CliConfig();
        c.remember("https://a.example.com", entry("https://kc/a", List.of(), false));
        c.remember("https://b.example.com", entry("https://kc/b", List.of(), false));

        c.save(file);

        assertThat(CliConfig.load(file).latest()).contains("https://b.example.com");
    }

    @Test
    void nullResolveBecomesEmptyList() {
        assertThat(new CliConfig.Backplane("https://kc", "c", "https://kc/t", null, false).resolve()).isEmpty();
    }

    @Test
    void unknownFieldsAreIgnored() throws Exception {
        Path file = dir.resolve("config.json");
        Files.writeString(file, """
                {"backplane": "https://a.example.com", "future_field": 1,
                 "backplanes": {"https://a.example.com": {"issuer": "https://kc", "client_id": "svc-cli", "extra": true}}}
                """);

        CliConfig c = CliConfig.load(file);

        assertThat(c.latest()).contains("https://a.example.com");
        assertThat(c.backplane("https://a.example.com").orElseThrow().clientId()).isEqualTo("svc-cli");
    }

    /** Issue 46: a file from before contexts becomes a context per backplane, using the tokens already stored. */
    @Test
    void aConfigFromBeforeContextsMigratesSilently() throws Exception {
        Path file = dir.resolve("config.json");
        Files.writeString(file, """
                {"backplane": "http://127.0.0.1:8080",
                 "backplanes": {"https://svc.example.com": {"issuer": "https://kc/a", "client_id": "svc-cli"},
                                "http://127.0.0.1:8080": {"issuer": "http://127.0.0.1:8180/realms/svc", "client_id": "svc-cli"}}}
                """);

        CliConfig c = CliConfig.load(file);

        assertThat(c.contexts()).containsOnlyKeys("svc.example.com", "127.0.0.1-8080");
        assertThat(c.currentName()).contains("127.0.0.1-8080");
        assertThat(c.currentContext().orElseThrow().identity()).as("the tokens stored under the URL")
                .isEqualTo("http://127.0.0.1:8080");
        assertThat(c.latest()).contains("http://127.0.0.1:8080");
        c.save(file);
        assertThat(Files.readString(file)).contains("\"current_context\" : \"127.0.0.1-8080\"")
                .as("older CLIs still find the backplane").contains("\"backplane\" : \"http://127.0.0.1:8080\"");
        assertThat(CliConfig.load(file).contexts()).hasSize(2);

        CliConfig again = CliConfig.load(file);
        again.remove("127.0.0.1-8080");
        again.remove("svc.example.com");
        again.save(file);
        assertThat(CliConfig.load(file).contexts()).as("deleted contexts are not migrated back").isEmpty();
        assertThat(CliConfig.load(file).backplane("http://127.0.0.1:8080")).as("what logins learned stays").isPresent();
    }

    @Test
    void contextsRenameRemoveAndNamesForUrls() {
        CliConfig c = new CliConfig();
        c.putContext(c.nameFor("https://svc.example.com"), new CliConfig.Context("https://svc.example.com",
                "https://svc.example.com", null, null));
        c.putContext("ci", new CliConfig.Context("https://svc.example.com", "https://svc.example.com#ci", null, "json"));
        c.use("ci");
        assertThat(c.nameFor("https://svc.example.com")).as("the context holding the URL's own login")
                .isEqualTo("svc.example.com");
        assertThat(c.nameFor("https://svc.example.com:8443")).isEqualTo("svc.example.com-8443");
        c.putContext("svc.example.com-8443", new CliConfig.Context("https://other", "https://other", null, null));
        assertThat(c.nameFor("https://svc.example.com:8443")).as("made unique").isEqualTo("svc.example.com-8443-2");

        c.rename("ci", "pipeline");
        assertThat(c.currentName()).contains("pipeline");
        assertThat(c.contexts().keySet()).containsExactly("svc.example.com", "pipeline", "svc.example.com-8443");
        assertThat(c.identityShared("pipeline", "https://svc.example.com#ci")).isFalse();
        assertThat(c.identityShared("pipeline", "https://svc.example.com")).isTrue();
        c.remove("pipeline");
        assertThat(c.currentName()).isEmpty();
        assertThat(c.latest()).isEmpty();
    }

    /** Garbage, and JSON of the wrong shape. */
    @ParameterizedTest
    @ValueSource(strings = {"{ this is : not json", "[1, 2, 3]"})
    void unreadableFileIsAFailureNamingThePath(String content) throws Exception {
        Path file = dir.resolve("config.json");
        Files.writeString(file, content);

        CliException e = catchThrowableOfType(CliException.class, () -> CliConfig.load(file));

        assertThat(e).isNotNull();
        assertThat(e.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(e.getMessage()).contains(file.toString());
    }

    /*
     * BUG (CliConfig.load): a config file holding the JSON literal `null` makes JSON.readValue return
     * null, and the next line dereferences it (c.backplanes), so load throws NullPointerException
     * instead of CliException(FAILED, "cannot read CLI config <path>: ..."). Through Svc.run that is
     * exit 1 with "error: java.lang.NullPointerException" and a stack trace, and no path.
     */
    @Test
    void jsonNullFileIsAFailureNamingThePath() throws Exception {
        Path file = dir.resolve("config.json");
        Files.writeString(file, "null");

        Throwable t = catchThrowable(() -> CliConfig.load(file));

        assertThat(t).isInstanceOf(CliException.class);
        assertThat(((CliException) t).exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(t.getMessage()).contains(file.toString());
    }
}
