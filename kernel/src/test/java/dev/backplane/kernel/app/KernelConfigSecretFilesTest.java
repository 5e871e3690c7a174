package dev.backplane.kernel.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.backplane.kernel.testing.LogCapture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code SVC_X_FILE}: every secret setting's value can come from a file (a mounted Kubernetes secret), one trailing
 * line break dropped; both variables set, or a file that cannot be read, is a configuration error naming the
 * variables or the path — never the value — and the value appears in no log line or error.
 */
class KernelConfigSecretFilesTest {

    @TempDir
    Path dir;

    @Test
    void everySecretSettingIsReadableFromAFile() throws Exception {
        LogCapture logs = LogCapture.onRootLogger();
        try {
            for (Setting s : Arrays.stream(Setting.values()).filter(s -> s.definition().secret()).toList()) {
                String secret = "s3cret-" + UUID.randomUUID();
                Path file = Files.writeString(dir.resolve(s.name()), secret + "\n");
                assertThat(s.fileEnvVar()).hasValue(s.envVar() + "_FILE");
                KernelConfig c = KernelConfig.load(Optional.empty(), Map.of(s.fileEnvVar().get(), file.toString()));
                assertThat(c.get(s)).as(s.key()).isEqualTo(secret);
                assertThat(c.toString()).doesNotContain(secret);

                KernelConfig.ConfigException both = catchThrowableOfType(KernelConfig.ConfigException.class,
                        () -> KernelConfig.load(Optional.empty(), Map.of(s.envVar(), secret,
                                s.fileEnvVar().get(), file.toString())));
                assertThat(both).hasMessageContaining(s.envVar()).hasMessageContaining(s.fileEnvVar().get())
                        .hasMessageNotContaining(secret);
                assertThat(logs.lines()).noneMatch(l -> l.contains(secret));
            }
        } finally {
            logs.detach();
        }
        assertThat(Setting.VAULT_TOKEN.fileEnvVar()).hasValue("SVC_VAULT_TOKEN_FILE");
        assertThat(Setting.DB_PASSWORD.fileEnvVar()).hasValue("SVC_DB_PASSWORD_FILE");
        assertThat(Setting.DB_USER.fileEnvVar()).as("not a secret: no _FILE").isEmpty();
        assertThat(KernelConfig.load(Optional.empty(), Map.of("SVC_DB_USER_FILE", "/nonexistent")).get(Setting.DB_USER))
                .as("a _FILE variable of a setting that is not secret is no setting").isEmpty();
    }

    @Test
    void onlyTheTrailingLineBreakIsDropped() throws Exception {
        Path file = Files.writeString(dir.resolve("pw"), "  pass word \r\n");
        assertThat(KernelConfig.load(Optional.empty(), Map.of("SVC_DB_PASSWORD_FILE", file.toString()))
                .get(Setting.DB_PASSWORD)).isEqualTo("  pass word ");
    }

    @Test
    void anUnreadableFileIsAnErrorNamingThePathNotTheContent() throws Exception {
        Path absent = dir.resolve("absent");
        assertThat(catchThrowableOfType(KernelConfig.ConfigException.class, () -> KernelConfig.load(Optional.empty(),
                Map.of("SVC_VAULT_SECRET_ID_FILE", absent.toString()))))
                .hasMessageContaining("SVC_VAULT_SECRET_ID_FILE").hasMessageContaining(absent.toString());
        String content = "content-" + UUID.randomUUID();
        Path unreadable = Files.writeString(dir.resolve("unreadable"), content);
        Path directory = Files.createDirectory(dir.resolve("a-directory"));
        assertThat(catchThrowableOfType(KernelConfig.ConfigException.class, () -> KernelConfig.load(Optional.empty(),
                Map.of("SVC_CLOUDSM_TOKEN_FILE", directory.toString()))))
                .hasMessageContaining(directory.toString()).hasMessageNotContaining(content);
        assertThat(unreadable.toFile().setReadable(false)).isTrue();
        if (!Files.isReadable(unreadable)) { // root reads anything
            assertThat(catchThrowableOfType(KernelConfig.ConfigException.class, () -> KernelConfig.load(Optional.empty(),
                    Map.of("SVC_DB_PASSWORD_FILE", unreadable.toString()))))
                    .hasMessageContaining(unreadable.toString()).hasMessageNotContaining(content);
        }
    }
}
