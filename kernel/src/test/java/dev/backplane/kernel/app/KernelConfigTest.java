package dev.backplane.kernel.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KernelConfigTest {

    @TempDir
    Path dir;

    private Path yaml(String text) throws Exception {
        Path file = dir.resolve("svc.yaml");
        Files.writeString(file, text);
        return file;
    }

    private static KernelConfig.ConfigException configError(Runnable r) {
        KernelConfig.ConfigException e = catchThrowableOfType(KernelConfig.ConfigException.class, r::run);
        assertThat(e).as("expected a ConfigException").isNotNull();
        return e;
    }

    @Test
    void defaultsApplyWithoutFileOrEnvironment() {
        KernelConfig c = KernelConfig.load(Optional.empty(), Map.of());

        assertThat(c.get(Setting.SERVER_HOST)).isEqualTo("127.0.0.1");
        assertThat(c.intValue(Setting.SERVER_PORT)).isEqualTo(8080);
        assertThat(c.get(Setting.IDENTITY_AUDIENCE)).isEqualTo("svc-backplane");
        assertThat(c.get(Setting.IDENTITY_CLI_CLIENT_ID)).isEqualTo("svc-cli");
        assertThat(c.intValue(Setting.DB_POOL_SIZE)).isEqualTo(16);
        assertThat(c.optional(Setting.IDENTITY_ISSUER)).isEmpty();
        assertThat(c.optional(Setting.DB_URL)).isEmpty();
        assertThat(c.list(Setting.IDENTITY_ALGORITHMS)).startsWith("RS256").contains("ES512").hasSize(9);
        for (Setting s : Setting.values()) {
            assertThat(c.get(s)).as(s.key()).isEqualTo(s.defaultValue());
        }
    }

    @Test
    void theEmbeddingModelIsOneTheBuildShips() {
        assertThat(KernelConfig.load(Optional.empty(), Map.of()).retrievalModel().name()).isEqualTo("all-minilm-l6-v2-q");
        assertThat(KernelConfig.load(Optional.empty(), Map.of("SVC_RETRIEVAL_MODEL", "bge-small-en-v1.5-q"))
                .retrievalModel().name()).isEqualTo("bge-small-en-v1.5-q");
        assertThat(configError(() -> KernelConfig.load(Optional.empty(), Map.of("SVC_RETRIEVAL_MODEL", "gpt-embed"))))
                .hasMessageContaining("retrieval.model is 'gpt-embed'")
                .hasMessageContaining("all-minilm-l6-v2-q").hasMessageContaining("bge-small-en-v1.5-q");
    }

    @Test
    void specsOwnSettingNameIsAcceptedAndTheSvcNameWins() {
        assertThat(KernelConfig.load(Optional.empty(), Map.of("MEMORY_USER_DEFAULT_TTL_DAYS", "30"))
                .intValue(Setting.MEMORY_USER_DEFAULT_TTL_DAYS)).isEqualTo(30);
        assertThat(KernelConfig.load(Optional.empty(), Map.of("MEMORY_USER_DEFAULT_TTL_DAYS", "30",
                "SVC_MEMORY_USER_DEFAULT_TTL_DAYS", "3")).intValue(Setting.MEMORY_USER_DEFAULT_TTL_DAYS)).isEqualTo(3);
        assertThatThrownBy(() -> KernelConfig.load(Optional.empty(), Map.of("MEMORY_USER_DEFAULT_TTL_DAYS", "-1")))
                .as("checked like the SVC_ name").isInstanceOf(RuntimeException.class);
    }

    @Test
    void environmentNotNamingASettingIsIgnored() {
        KernelConfig c = KernelConfig.load(Optional.empty(), Map.of("PATH", "/usr/bin", "SVC_NOT_A_SETTING", "x"));

        assertThat(c.get(Setting.SERVER_PORT)).isEqualTo("8080");
    }

    @Test
    void yamlFileValuesAreRead() throws Exception {
        Path file = yaml("""
                server:
                  port: 9090
                  host: 0.0.0.0
                identity:
                  issuer: https://kc.example.com/realms/svc
                  audience: my-backplane
                db:
                  embedded:
                    port: 5433
                """);

        KernelConfig c = KernelConfig.load(Optional.of(file), Map.of());

        assertThat(c.intValue(Setting.SERVER_PORT)).isEqualTo(9090);
        assertThat(c.get(Setting.SERVER_HOST)).isEqualTo("0.0.0.0");
        assertThat(c.required(Setting.IDENTITY_ISSUER)).isEqualTo("https://kc.example.com/realms/svc");
        assertThat(c.get(Setting.IDENTITY_AUDIENCE)).isEqualTo("my-backplane");
        assertThat(c.intValue(Setting.DB_EMBEDDED_PORT)).isEqualTo(5433);
        assertThat(c.get(Setting.IDENTITY_CLI_CLIENT_ID)).as("untouched keys keep their default").isEqualTo("svc-cli");
    }

    @Test
    void flowStyleAndDottedKeysAreRead() throws Exception {
        Path file = yaml("""
                server: {port: 9191}
                identity.jwks-url: https://kc.example.com/certs
                """);

        KernelConfig c = KernelConfig.load(Optional.of(file), Map.of());

        assertThat(c.get(Setting.SERVER_PORT)).isEqualTo("9191");
        assertThat(c.get(Setting.IDENTITY_JWKS_URL)).isEqualTo("https://kc.example.com/certs");
    }

    @Test
    void yamlListBecomesCommaSeparatedList() throws Exception {
        Path file = yaml("""
                identity:
                  algorithms: [RS256, ES256]
                """);

        KernelConfig c = KernelConfig.load(Optional.of(file), Map.of());

        assertThat(c.list(Setting.IDENTITY_ALGORITHMS)).containsExactly("RS256", "ES256");
    }

    @Test
    void emptyFileKeepsDefaults() throws Exception {
        KernelConfig c = KernelConfig.load(Optional.of(yaml("")), Map.of());

        assertThat(c.get(Setting.SERVER_PORT)).isEqualTo("8080");
    }

    @Test
    void environmentOverridesTheFile() throws Exception {
        Path file = yaml("""
                server:
                  port: 9090
                identity:
                  issuer: https://from-file.example.com
                """);

        KernelConfig c = KernelConfig.load(Optional.of(file), Map.of(
                "SVC_SERVER_PORT", " 7070 ",
                "SVC_IDENTITY_ISSUER", "https://from-env.example.com"));

        assertThat(c.get(Setting.SERVER_PORT)).isEqualTo("7070");
        assertThat(c.intValue(Setting.SERVER_PORT)).isEqualTo(7070);
        assertThat(c.required(Setting.IDENTITY_ISSUER)).isEqualTo("https://from-env.example.com");
    }

    @Test
    void environmentOverridesDefaults() {
        KernelConfig c = KernelConfig.load(Optional.empty(), Map.of("SVC_DB_POOL_SIZE", "4",
                "SVC_IDENTITY_CLOCK_SKEW_SECONDS", "5"));

        assertThat(c.intValue(Setting.DB_POOL_SIZE)).isEqualTo(4);
        assertThat(c.intValue(Setting.IDENTITY_CLOCK_SKEW)).isEqualTo(5);
    }

    @Test
    void unknownKeyIsAnErrorNamingTheKey() throws Exception {
        Path file = yaml("""
                server:
                  port: 9090
                  prot: 9091
                """);

        KernelConfig.ConfigException e = configError(() -> KernelConfig.load(Optional.of(file), Map.of()));

        assertThat(e.getMessage()).contains("server.prot").contains(file.toString());
    }

    @Test
    void unknownTopLevelKeyIsAnError() throws Exception {
        Path file = yaml("colour: blue\n");

        KernelConfig.ConfigException e = configError(() -> KernelConfig.load(Optional.of(file), Map.of()));

        assertThat(e.getMessage()).contains("colour");
    }

    @Test
    void nonMappingFileIsAnError() throws Exception {
        Path file = yaml("- just\n- a list\n");

        KernelConfig.ConfigException e = configError(() -> KernelConfig.load(Optional.of(file), Map.of()));

        assertThat(e.getMessage()).contains(file.toString()).contains("mapping");
    }

    @Test
    void unreadableYamlIsAnError() throws Exception {
        Path file = yaml("server: [unclosed\n");

        KernelConfig.ConfigException e = configError(() -> KernelConfig.load(Optional.of(file), Map.of()));

        assertThat(e.getMessage()).contains(file.toString());
    }

    @Test
    void missingFileIsAnError() {
        Path file = dir.resolve("absent.yaml");

        KernelConfig.ConfigException e = configError(() -> KernelConfig.load(Optional.of(file), Map.of()));

        assertThat(e.getMessage()).contains(file.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"eighty", "80.5", "", "0x50"})
    void nonIntegerPortIsAnError(String port) {
        KernelConfig.ConfigException e = configError(
                () -> KernelConfig.load(Optional.empty(), Map.of("SVC_SERVER_PORT", port)));

        assertThat(e.getMessage()).contains("server.port").contains("integer");
    }

    @Test
    void nonIntegerPortInTheFileIsAnError() throws Exception {
        Path file = yaml("server: {port: eighty}\n");

        KernelConfig.ConfigException e = configError(() -> KernelConfig.load(Optional.of(file), Map.of()));

        assertThat(e.getMessage()).contains("server.port").contains("'eighty'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"65536", "-1", "100000"})
    void outOfRangePortIsAnError(String port) {
        KernelConfig.ConfigException e = configError(
                () -> KernelConfig.load(Optional.empty(), Map.of("SVC_SERVER_PORT", port)));

        assertThat(e.getMessage()).contains("server.port").contains("between 0 and 65535").contains(port);
    }

    @Test
    void portBoundsAreAccepted() {
        assertThat(KernelConfig.load(Optional.empty(), Map.of("SVC_SERVER_PORT", "0"))
                .intValue(Setting.SERVER_PORT)).isZero();
        assertThat(KernelConfig.load(Optional.empty(), Map.of("SVC_SERVER_PORT", "65535"))
                .intValue(Setting.SERVER_PORT)).isEqualTo(65535);
    }

    @Test
    void otherIntegerSettingsAreValidated() {
        assertThat(configError(() -> KernelConfig.load(Optional.empty(), Map.of("SVC_DB_POOL_SIZE", "0")))
                .getMessage()).contains("db.pool-size");
        assertThat(configError(() -> KernelConfig.of(Map.of(Setting.IDENTITY_JWKS_CACHE_SECONDS, "0")))
                .getMessage()).contains("identity.jwks-cache-seconds");
        assertThat(configError(() -> KernelConfig.of(Map.of(Setting.IDENTITY_CLOCK_SKEW, "601")))
                .getMessage()).contains("identity.clock-skew-seconds");
        assertThat(configError(() -> KernelConfig.load(Optional.empty(), Map.of("SVC_DB_CONNECT_WAIT_SECONDS", "-1")))
                .getMessage()).contains("db.connect-wait-seconds");
    }

    @Test
    void theDatabaseConnectWaitReachesTheDatabaseSettings() {
        assertThat(KernelConfig.load(Optional.empty(), Map.of()).database().connectWait()).hasSeconds(30);
        assertThat(KernelConfig.load(Optional.empty(), Map.of("SVC_DB_CONNECT_WAIT_SECONDS", "0")).database()
                .connectWait()).isZero();
    }

    @Test
    void toStringMasksTheDatabasePassword() throws Exception {
        Path file = yaml("""
                db:
                  url: jdbc:postgresql://db.example.com/svc
                  user: svc
                  password: hunter2-from-file
                """);

        String fromFile = KernelConfig.load(Optional.of(file), Map.of()).toString();
        String fromEnv = KernelConfig.load(Optional.empty(), Map.of("SVC_DB_PASSWORD", "s3cr3t-from-env")).toString();

        assertThat(fromFile).doesNotContain("hunter2").contains("db.password=****")
                .contains("db.user=svc").contains("jdbc:postgresql://db.example.com/svc");
        assertThat(fromEnv).doesNotContain("s3cr3t").contains("db.password=****");
    }

    @Test
    void toStringOfEmptyPasswordShowsItIsEmpty() {
        String s = KernelConfig.load(Optional.empty(), Map.of()).toString();

        assertThat(s).contains("db.password=,").doesNotContain("db.password=****");
    }

    @Test
    void requiredOnEmptyValueNamesTheEnvironmentVariable() {
        KernelConfig c = KernelConfig.load(Optional.empty(), Map.of());

        KernelConfig.ConfigException e = configError(() -> c.required(Setting.IDENTITY_ISSUER));

        assertThat(e.getMessage()).contains("SVC_IDENTITY_ISSUER").contains("identity.issuer");
    }

    @Test
    void requiredOnBlankValueFromTheEnvironmentThrows() {
        KernelConfig c = KernelConfig.load(Optional.empty(), Map.of("SVC_IDENTITY_ISSUER", "   "));

        KernelConfig.ConfigException e = configError(() -> c.required(Setting.IDENTITY_ISSUER));

        assertThat(e.getMessage()).contains("SVC_IDENTITY_ISSUER");
    }

    @Test
    void ofAppliesOverridesAndDefaults() {
        KernelConfig c = KernelConfig.of(Map.of(Setting.SERVER_PORT, "0", Setting.IDENTITY_ISSUER, "https://kc"));

        assertThat(c.get(Setting.SERVER_PORT)).isEqualTo("0");
        assertThat(c.required(Setting.IDENTITY_ISSUER)).isEqualTo("https://kc");
        assertThat(c.get(Setting.SERVER_HOST)).isEqualTo("127.0.0.1");
    }

    @Test
    void withReturnsAChangedCopy() {
        KernelConfig c = KernelConfig.of(Map.of());

        KernelConfig changed = c.with(Setting.SERVER_PORT, "12345");

        assertThat(changed.get(Setting.SERVER_PORT)).isEqualTo("12345");
        assertThat(c.get(Setting.SERVER_PORT)).isEqualTo("8080");
    }
}
