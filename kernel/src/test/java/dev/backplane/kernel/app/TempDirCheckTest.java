package dev.backplane.kernel.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A temp directory the kernel cannot write stops the start with a configuration error, not a 500 later. */
class TempDirCheckTest {

    @Test
    void aWritableTempDirPassesAndIsLeftAsItWas(@TempDir Path dir) throws Exception {
        Kernel.requireWritableTempDir(dir.toString());
        try (var files = Files.list(dir)) {
            assertThat(files).as("the probe file is deleted").isEmpty();
        }
    }

    @Test
    void aMissingOrReadOnlyTempDirIsAConfigurationErrorNamingIt(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("no-such-dir");
        assertThat(catchThrowable(() -> Kernel.requireWritableTempDir(missing.toString())))
                .isInstanceOf(KernelConfig.ConfigException.class)
                .hasMessageContaining("java.io.tmpdir=" + missing).hasMessageContaining("emptyDir at /tmp");
        Path file = Files.writeString(dir.resolve("a-file"), "not a directory");
        assertThat(catchThrowable(() -> Kernel.requireWritableTempDir(file.toString())))
                .isInstanceOf(KernelConfig.ConfigException.class).hasMessageContaining("java.io.tmpdir=" + file);
    }
}
