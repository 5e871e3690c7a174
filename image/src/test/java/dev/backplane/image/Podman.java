package dev.backplane.image;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.backplane.kernel.testing.TempDirs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs podman as these machines can: as root, with the runc runtime (crun fails on their cgroup layout) and a
 * containers.conf without default ulimits, written here so that nobody's environment has to carry it.
 *
 * <p>The drills call it for what is about images (load, tag, inspect, mount, remove); containers run through
 * Testcontainers ({@link KernelContainer} on {@link PodmanEngine}).
 */
final class Podman {

    /** What a podman call printed and how it exited. */
    record Run(int exit, String out) {
        Run ok() {
            if (exit != 0) {
                throw new IllegalStateException("podman exited " + exit + ":\n" + out);
            }
            return this;
        }
    }

    private static Path sharedConf;
    private final Path conf;

    private Podman(Path conf) {
        this.conf = conf;
    }

    /** A podman these tests can use, or the test skips with the reason. */
    static Podman require() throws IOException {
        String why = unusable();
        assumeTrue(why == null, why);
        return new Podman(containersConf());
    }

    /** Why podman cannot run containers here, or null when it can. */
    static String unusable() {
        if (List.of("/usr/bin/podman", "/usr/local/bin/podman").stream().noneMatch(p -> Files.isExecutable(Path.of(p)))) {
            return "podman is not installed (bin/test-deps.sh installs it where it can: root and apt-get)";
        }
        if (!"root".equals(System.getProperty("user.name"))) {
            return "podman runs containers as root on these machines; this user is " + System.getProperty("user.name");
        }
        if (!Files.isExecutable(Path.of("/usr/sbin/runc")) && !Files.isExecutable(Path.of("/usr/bin/runc"))) {
            return "runc is not installed (bin/test-deps.sh installs it where it can)";
        }
        return null;
    }

    /** The containers.conf every podman of this JVM runs with: no default ulimits (these machines refuse them). */
    static synchronized Path containersConf() throws IOException {
        if (sharedConf == null) {
            Path conf = TempDirs.file("svc-containers-", ".conf");
            Files.writeString(conf, "[containers]\ndefault_ulimits = []\n");
            sharedConf = conf;
        }
        return sharedConf;
    }

    Run run(List<String> args) throws IOException, InterruptedException {
        return run(args, Map.of());
    }

    /** Runs {@code podman --runtime runc <args>} with {@code env} added to its environment. */
    Run run(List<String> args, Map<String, String> env) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("podman", "--runtime", "runc"));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("CONTAINERS_CONF", conf.toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("podman " + args + " did not finish in 300 s");
        }
        return new Run(p.exitValue(), out.strip());
    }
}
