package dev.backplane.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI archive bin/build-cli made in this run runs with no JDK and no checkout: an empty environment. */
class CliArchiveIT {

    static final Path ARCHIVE = ImageIT.ROOT.resolve("target/cli/svc-cli-" + ImageIT.VERSION + "-linux-x64.tar.gz");

    record Out(int exit, String text) {
    }

    static Out run(Path dir, List<String> cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().put("PATH", "/usr/bin:/bin");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Out(p.exitValue(), out);
    }

    @Test
    void unpackedAnywhereItRunsWithoutAJdkAndUsesItsAheadOfTimeCache(@TempDir Path dir) throws Exception {
        assumeTrue(Files.isRegularFile(ARCHIVE), "no CLI archive at " + ARCHIVE + " (-Dsvc.image.skip, or bin/build-cli failed)");
        assertThat(run(dir, List.of("tar", "-xzf", ARCHIVE.toString())).exit()).isZero();
        String svc = dir.resolve("svc-cli-" + ImageIT.VERSION + "-linux-x64/bin/svc").toString();
        long t0 = System.nanoTime();
        Out version = run(dir, List.of(svc, "--version"));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(version.exit()).as(version.text()).isZero();
        assertThat(version.text()).startsWith("svc " + ImageIT.VERSION);
        System.out.printf("cli: svc --version from the unpacked archive in %d ms%n", ms);
        Out help = run(dir, List.of(svc, "--help"));
        assertThat(help.exit()).as(help.text()).isZero();
        assertThat(help.text()).contains("Usage: svc");
        // AOTMode=on fails the start when the cache cannot be used (moved jars, another runtime)
        Out aot = run(dir, List.of("/usr/bin/env", "JDK_JAVA_OPTIONS=-XX:AOTMode=on", svc, "--version"));
        assertThat(aot.exit()).as(aot.text()).isZero();
        // no JDK was found on the way: the archive's own runtime ran
        assertThat(Files.isExecutable(dir.resolve("svc-cli-" + ImageIT.VERSION + "-linux-x64/runtime/bin/java"))).isTrue();
    }
}
