package dev.backplane.kernel.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's settings table names every setting the kernel reads, with its variable and default. */
class ReadmeSettingsTest {

    @Test
    void everySettingIsDocumented() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        for (Setting s : Setting.values()) {
            String def = s.defaultValue().isEmpty() ? "(empty)" : "`" + s.defaultValue() + "`";
            assertThat(readme).as(s.key()).contains("| `" + s.key() + "` | `" + s.envVar() + "` | " + def + " |");
        }
    }
}
