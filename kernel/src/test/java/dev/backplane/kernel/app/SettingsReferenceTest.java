package dev.backplane.kernel.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.testing.GeneratedReference;
import org.junit.jupiter.api.Test;

/** {@code docs/reference/settings.md} is what the {@link Setting} declarations generate. */
class SettingsReferenceTest {

    @Test
    void theCommittedSettingsReferenceIsWhatTheDeclarationsGenerate() throws Exception {
        GeneratedReference.check(SettingsReference.FILE, SettingsReference.markdown());
    }

    @Test
    void everySettingHasItsRowWithVariableDefaultAndRange() {
        String md = SettingsReference.markdown();
        for (Setting s : Setting.values()) {
            assertThat(md).as(s.key()).contains("| `" + s.key() + "` | `" + s.envVar() + "`");
        }
        assertThat(md).contains("| `server.port` | `SVC_SERVER_PORT` | `8080` | 0..65535 |  |")
                .contains("| `db.password` | `SVC_DB_PASSWORD` | (empty) |  | yes, `SVC_DB_PASSWORD_FILE` |")
                .contains("(also `MEMORY_USER_DEFAULT_TTL_DAYS`, SPEC's name;");
    }
}
