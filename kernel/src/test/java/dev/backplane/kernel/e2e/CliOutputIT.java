package dev.backplane.kernel.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.cli.Svc;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.KernelTest;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestPlugins;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Issue 46, output for people and scripts, against the real kernel: tables fitted to a terminal (an ellipsis for a
 * cut cell; {@code -o wide} and a pipe print every cell whole), checked once in-process and once on a real
 * pseudo-terminal; {@code -o jsonpath=...} selections on three commands; a bad expression is a usage error.
 */
@KernelTest(settings = "SVC_TARGET_SSRF_ALLOWLIST=127.0.0.0/8, ::1/128")
class CliOutputIT extends PerTestTenant {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ELLIPSIS = "\u2026";

    @BeforeKernel
    static void plugins(KernelSetup setup) {
        setup.plugin(TestPlugins.connector("demo", "2.x").product("demo").ranges("2.x"));
    }

    /** Two targets, one with a row far wider than 80 columns. */
    private CliRunner withTargets() {
        CliRunner cli = kernel.cli(admin);
        List<String> wide = new ArrayList<>(List.of("targets", "add", "edge-gateway-frankfurt-rack-14-primary",
                "--host", "127.0.0.1", "--product", "demo"));
        IntStream.rangeClosed(1, 8).forEach(i -> wide.addAll(List.of("--alias", "fra-edge-gateway-alias-" + i)));
        CliRunner.Result added = cli.run(wide.toArray(String[]::new));
        assertThat(added.exitCode()).as(added.toString()).isZero();
        assertThat(cli.run("targets", "add", "db-1", "--host", "127.0.0.2", "--product", "demo").exitCode()).isZero();
        return cli;
    }

    @Test
    void aTableFitsAnEightyColumnTerminalAndWideOrAPipePrintsEveryCell() {
        CliRunner cli = withTargets();

        CliRunner.Result piped = cli.run("targets", "list");
        assertThat(piped.exitCode()).as(piped.toString()).isZero();
        assertThat(piped.out()).as("a pipe gets every cell whole").contains("fra-edge-gateway-alias-8")
                .doesNotContain(ELLIPSIS);
        assertThat(maxWidth(piped.out())).isGreaterThan(80);

        CliRunner.Result fitted = cli.terminal(80).run("targets", "list");
        assertThat(fitted.exitCode()).as(fitted.toString()).isZero();
        assertThat(maxWidth(fitted.out())).as(fitted.out()).isLessThanOrEqualTo(80);
        assertThat(fitted.out()).contains(ELLIPSIS).contains("db-1").contains("127.0.0.2:443")
                .doesNotContain("fra-edge-gateway-alias-8");
        assertThat(fitted.out().lines().toList()).as("a row per target, under a header").hasSize(3);

        CliRunner.Result wide = cli.run("targets", "list", "-o", "wide");
        assertThat(wide.exitCode()).as(wide.toString()).isZero();
        assertThat(wide.out()).as("-o wide on a terminal: every cell whole").isEqualTo(piped.out());
    }

    /** The same on a real pseudo-terminal: the CLI finds out by itself that it prints to a terminal 80 wide. */
    @Test
    void onARealPseudoTerminalTheCliFindsTheWidthItself() throws Exception {
        withTargets();
        Path home = TempDirs.create("svc-pty");
        try {
            Path jar = Path.of(Svc.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            assertThat(jar.getFileName().toString()).as("the built CLI jar").endsWith(".jar");
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            String command = java + " -jar " + jar + " targets list";
            String onTerminal = run(home, List.of("script", "-qec", "stty cols 80 rows 40; exec " + command, "/dev/null"));
            String throughPipe = run(home, List.of("sh", "-c", command));

            List<String> lines = onTerminal.lines().map(l -> l.replace("\r", "")).filter(l -> !l.isBlank()).toList();
            assertThat(lines).as(onTerminal).hasSize(3);
            assertThat(lines).allSatisfy(l -> assertThat(l.codePointCount(0, l.length())).isLessThanOrEqualTo(80));
            assertThat(onTerminal).contains(ELLIPSIS);
            assertThat(throughPipe).contains("fra-edge-gateway-alias-8").doesNotContain(ELLIPSIS);
            String selected = run(home, List.of("sh", "-c", command + " -o 'jsonpath=$.targets[*].name'"));
            assertThat(selected.lines().toList()).as("standard output and error together: only the names")
                    .containsExactly("db-1", "edge-gateway-frankfurt-rack-14-primary");
        } finally {
            TempDirs.delete(home);
        }
    }

    private String run(Path home, List<String> command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Map<String, String> env = pb.environment();
        env.remove("COLUMNS");
        env.putAll(Map.of("HOME", home.toString(), "XDG_CONFIG_HOME", home.toString(), "SVC_TOKEN_STORE", "file",
                "SVC_TOKEN", admin, "SVC_BACKPLANE", kernel.url(), "SVC_INSECURE_ALLOW_HTTP", "1", "LANG", "C.UTF-8"));
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String text = new String(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(text).isZero();
        return text;
    }

    @Test
    void jsonPathSelectsFromWhatThreeCommandsPrint() throws Exception {
        CliRunner cli = withTargets();

        CliRunner.Result names = cli.run("targets", "list", "-o", "jsonpath=$.targets[*].name");
        assertThat(names.exitCode()).as(names.toString()).isZero();
        assertThat(names.out().lines().toList()).containsExactly("db-1", "edge-gateway-frankfurt-rack-14-primary");
        assertThat(names.err()).as("nothing on standard error").isEmpty();

        CliRunner.Result kubectlForm = cli.run("targets", "describe", "db-1", "-o", "jsonpath={.host}");
        assertThat(kubectlForm.exitCode()).as(kubectlForm.toString()).isZero();
        assertThat(kubectlForm.out().strip()).isEqualTo("127.0.0.2");

        CliRunner.Result role = cli.run("status", "-o", "jsonpath=$.whoami.tenant_role");
        assertThat(role.exitCode()).as(role.toString()).isZero();
        assertThat(role.out().strip()).isEqualTo("tenant_admin");

        CliRunner.Result connectors = cli.run("connector", "list", "-o", "jsonpath=$[*]");
        assertThat(connectors.exitCode()).as(connectors.toString()).isZero();
        List<JsonNode> each = new ArrayList<>();
        for (String line : connectors.out().lines().toList()) {
            each.add(JSON.readTree(line)); // an object per line, as compact JSON
        }
        assertThat(each).extracting(c -> c.path("connector_id").asText()).contains("demo-2.x");

        CliRunner.Result fromEnv = cli.run(Map.of("SVC_OUTPUT", "jsonpath=$.targets.length()"), "", "targets", "list");
        assertThat(fromEnv.out().strip()).as(fromEnv.toString()).isEqualTo("2");

        CliRunner.Result bad = cli.run("targets", "list", "-o", "jsonpath=$.targets[*");
        assertThat(bad.exitCode()).as(bad.toString()).isEqualTo(2);
        assertThat(bad.err()).contains("-o jsonpath");
        CliRunner.Result missing = cli.run("status", "-o", "jsonpath=$.whoami.no_such_field");
        assertThat(missing.exitCode()).as(missing.toString()).isEqualTo(1);
        assertThat(missing.err()).contains("matches nothing");
        CliRunner.Result badEnv = cli.run(Map.of("SVC_OUTPUT", "xml"), "", "targets", "list");
        assertThat(badEnv.exitCode()).isEqualTo(2);
        assertThat(badEnv.err()).contains("SVC_OUTPUT").contains("jsonpath=<expr>");
    }

    private static int maxWidth(String out) {
        return Arrays.stream(out.split("\n")).mapToInt(l -> l.codePointCount(0, l.length())).max().orElse(0);
    }
}
