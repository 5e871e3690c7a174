package dev.backplane.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * files/ChartTool.class (what the plugin init container and the helm test pod run with the image's java) is
 * files/ChartTool.java compiled, and both modes do what the chart relies on — run as a separate java process.
 */
class ChartToolTest {

    static final Path SOURCE = Chart.DIR.resolve("files/ChartTool.java");
    static final Path CLASS = Chart.DIR.resolve("files/ChartTool.class");

    record Run(int exit, String out) {
    }

    @Test
    void theShippedClassIsTheSourceCompiled(@TempDir Path tmp) throws IOException {
        var err = new ByteArrayOutputStream();
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, err, "--release", "21", "-d", tmp.toString(),
                SOURCE.toString());
        assertThat(rc).as(err.toString()).isZero();
        try (var files = Files.list(tmp)) {
            assertThat(files.map(p -> p.getFileName().toString()).toList()).containsExactly("ChartTool.class");
        }
        byte[] compiled = Files.readAllBytes(tmp.resolve("ChartTool.class"));
        if (Chart.updateGolden()) {
            Files.write(CLASS, compiled);
        }
        assertThat(Files.readAllBytes(CLASS)).as("files/ChartTool.class is stale (-Dgolden.update=true)")
                .isEqualTo(compiled);
        assertThat(compiled[7]).as("class file major version 65 (Java 21)").isEqualTo((byte) 65);
    }

    static Run run(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", CLASS.getParent().toString(), "ChartTool"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Run(p.waitFor(), out);
    }

    static String sha256(Path f) throws IOException {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(Files.readAllBytes(f)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void pluginsModeAddsListedJarsWithTheirDigestsBesideTheBundledOnes(@TempDir Path tmp) throws Exception {
        Path bundled = Files.createDirectories(tmp.resolve("bundled"));
        Files.writeString(bundled.resolve("k8s-1.x.jar"), "bundled jar");
        Files.writeString(bundled.resolve("SHA256SUMS"), sha256(bundled.resolve("k8s-1.x.jar")) + "  k8s-1.x.jar\n");
        Files.createDirectories(bundled.resolve("specs"));
        Files.writeString(bundled.resolve("specs/a.json"), "{}");
        Path extra = Files.createDirectories(tmp.resolve("extra"));
        Files.writeString(extra.resolve("acme-1.x.jar"), "acme jar");
        Files.writeString(extra.resolve("stowaway.jar"), "not listed");
        Path out = Files.createDirectories(tmp.resolve("out"));

        Run ok = run("plugins", bundled.toString(), extra.toString(), out.toString(),
                "acme-1.x.jar=" + sha256(extra.resolve("acme-1.x.jar")));
        assertThat(ok.exit()).as(ok.out()).isZero();
        assertThat(out.resolve("specs/a.json")).exists();
        assertThat(out.resolve("acme-1.x.jar")).hasContent("acme jar");
        assertThat(out.resolve("stowaway.jar")).as("an unlisted jar is not copied").doesNotExist();
        assertThat(Files.readAllLines(out.resolve("SHA256SUMS"))).containsExactly(
                sha256(bundled.resolve("k8s-1.x.jar")) + "  k8s-1.x.jar",
                sha256(extra.resolve("acme-1.x.jar")) + "  acme-1.x.jar");
    }

    @Test
    void pluginsModeStopsOnAWrongDigestOrAMissingJar(@TempDir Path tmp) throws Exception {
        Path bundled = Files.createDirectories(tmp.resolve("bundled"));
        Files.writeString(bundled.resolve("SHA256SUMS"), "");
        Path extra = Files.createDirectories(tmp.resolve("extra"));
        Files.writeString(extra.resolve("acme-1.x.jar"), "changed jar");
        Path out = Files.createDirectories(tmp.resolve("out"));
        String other = "0".repeat(64);
        Run bad = run("plugins", bundled.toString(), extra.toString(), out.toString(), "acme-1.x.jar=" + other,
                "gone-1.x.jar=" + other);
        assertThat(bad.exit()).isEqualTo(1);
        assertThat(bad.out()).contains("acme-1.x.jar has SHA-256 " + sha256(extra.resolve("acme-1.x.jar")))
                .contains("gone-1.x.jar is listed but not in");
        assertThat(out.resolve("SHA256SUMS")).as("nothing appended").hasContent("");
    }

    @Test
    void probeModeChecksReadinessAndTheIssuersDiscoveryDocument() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        int[] ready = {200};
        server.createContext("/health/ready", x -> {
            byte[] b = "{\"status\":\"UP\"}".getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(ready[0], b.length);
            x.getResponseBody().write(b);
            x.close();
        });
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        String issuer = base + "/realms/svc";
        server.createContext("/realms/svc/.well-known/openid-configuration", x -> {
            byte[] b = ("{\"issuer\":\"" + issuer.replace("/", "\\/") + "\",\"jwks_uri\":\"x\"}")
                    .getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(200, b.length);
            x.getResponseBody().write(b);
            x.close();
        });
        server.start();
        try {
            Run ok = run("probe", base + "/health/ready", issuer);
            assertThat(ok.exit()).as(ok.out()).isZero();
            assertThat(ok.out()).contains("names issuer " + issuer);

            Run otherIssuer = run("probe", base + "/health/ready", base + "/realms/other");
            assertThat(otherIssuer.exit()).isEqualTo(1);
            assertThat(otherIssuer.out()).contains("FAILED: " + base + "/realms/other/.well-known/openid-configuration");

            ready[0] = 503;
            Run notReady = run("probe", base + "/health/ready", issuer);
            assertThat(notReady.exit()).isEqualTo(1);
            assertThat(notReady.out()).contains("answers 503");
        } finally {
            server.stop(0);
        }
    }
}
