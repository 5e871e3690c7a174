package dev.backplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.cli.LoopbackBackplane.Result;
import dev.backplane.cli.common.ExitCodes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.AbstractStringAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code svc completion}: scripts for every shell, with the family verbs of the backplane's catalog. */
class CompletionCommandTest {

    /** A k8s connector whose verbs are svc k8s about, svc k8s pod list|logs and svc k8s deployment restart. */
    static final String CATALOG = """
            {"revision": 1, "connectors": [{"connector_id": "k8s@1.0", "impl_id": "k8s", "version": "1.0",
              "operations": [
                {"op_id": "k8s.about", "description": "Cluster version", "safety_level": "read",
                 "params_schema": {"type": "object", "properties": {}}},
                {"op_id": "k8s.pod.list", "description": "List pods", "safety_level": "read",
                 "params_schema": {"type": "object", "properties": {"namespace": {"type": "string"},
                   "all_namespaces": {"type": "boolean"}}}},
                {"op_id": "k8s.pod.logs", "description": "Pod logs", "safety_level": "read",
                 "params_schema": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"},
                   "tail_lines": {"type": "integer"}}}},
                {"op_id": "k8s.deployment.restart", "description": "Restart a deployment", "safety_level": "write",
                 "requires_approval": true, "params_schema": {"type": "object", "properties": {
                   "name": {"type": "string"}}}}]}]}
            """;

    @RegisterExtension
    final LoopbackBackplane backplane = new LoopbackBackplane().answer("/api/v1/catalog/operations", CATALOG)
            .answer("/api/v1/targets", "{\"targets\": [{\"name\": \"web-1\"}, {\"name\": \"web-2\"}, "
                    + "{\"name\": \"db-1\"}]}")
            .answer("/api/v1/connectors", "[{\"connector_id\": \"k8s@1.0\", \"status\": \"enabled\"}]")
            .answer("/api/v1/approvals", "[{\"id\": \"0b7c6a52-8d0e-4f57-9a39-5d1f3f0f6a01\", \"status\": \"pending\"}]");

    /** The environment the shells run in: a real svc first on PATH, talking to the test backplane. */
    private Map<String, String> shellEnv;

    @Test
    void bashScriptSourcesAndCompletesFamilyVerbs() throws Exception {
        Result r = backplane.svc("completion", "bash");

        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.OK);
        assertThat(r.err()).isEmpty();
        Path script = backplane.home().resolve("svc.bash");
        Files.writeString(script, r.out());
        assertThat(bash("bash -n " + script).code()).isZero();
        Result registered = bash("source " + script + " && complete -p svc");
        assertThat(registered.code()).as(registered.err()).isZero();
        assertThat(registered.out()).containsPattern("^complete .*-F _complete_svc .*\\bsvc$");
        assertThat(complete(script, "svc", "k8s", "pod", "l")).containsExactlyInAnyOrder("list", "logs");
        assertThat(complete(script, "svc", "k8s", "")).contains("about", "pod", "deployment", "operation");
        assertThat(complete(script, "svc", "k8s", "pod", "list", "--all")).contains("--all-namespaces");
        assertThat(complete(script, "svc", "comp")).containsExactly("completion");
        assertThat(complete(script, "svc", "version", "-o", "")).containsExactlyInAnyOrder("json", "yaml", "table", "wide", "jsonpath=");
    }

    @Test
    void bashCompletesNamesFromTheBackplane() throws Exception {
        Path script = script("bash");

        assertThat(complete(script, "svc", "targets", "describe", "")).containsExactly("db-1", "web-1", "web-2");
        assertThat(complete(script, "svc", "targets", "describe", "w")).containsExactly("web-1", "web-2");
        assertThat(complete(script, "svc", "operation", "call", "")).containsExactly("k8s@1.0");
        assertThat(complete(script, "svc", "operation", "call", "--params", "{}", "k8s@1.0", "k8s.pod.l"))
                .containsExactly("k8s.pod.list", "k8s.pod.logs");
        assertThat(complete(script, "svc", "k8s", "pod", "list", "--target", "d")).containsExactly("db-1");
        assertThat(complete(script, "svc", "--config", backplane.home().resolve("svc/config.json").toString(),
                "approvals", "approve", "")).containsExactly("0b7c6a52-8d0e-4f57-9a39-5d1f3f0f6a01");
        // where no name is taken, picocli's completion answers as before
        assertThat(complete(script, "svc", "targets", "describe", "--o")).containsExactlyInAnyOrder("--op", "--output");
        assertThat(complete(script, "svc", "targets", "")).contains("describe", "add");
    }

    @Test
    void bashOffersNothingQuicklyWhenTheBackplaneIsDown() throws Exception {
        Path script = script("bash");
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        shellEnv.put("SVC_BACKPLANE", "http://127.0.0.1:" + closed);

        long start = System.nanoTime();
        assertThat(complete(script, "svc", "targets", "describe", "")).isEmpty();
        // bash reads the script and starts a JVM, which a loaded machine makes slow; what matters is that it does not
        // wait out the 10 s timeout script() sets (CompleteCommandTest times the command itself)
        assertThat(java.time.Duration.ofNanos(System.nanoTime() - start)).isLessThan(java.time.Duration.ofSeconds(8));
    }

    @Test
    void zshCompletesNamesThroughBashcompinit() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(installed("zsh"), "zsh is not installed (bin/test-deps.sh)");
        Path script = script("zsh");
        assertThat(run("zsh", "-n", script.toString()).code()).isZero();

        // bashcompinit's compgen -F calls the script's function as zsh's completion would, and prints COMPREPLY
        Result r = run("zsh", "-f", "-c", "source " + script + " && COMP_WORDS=(svc targets describe w) && COMP_CWORD=3"
                + " && compgen -F _complete_svc -- w");

        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out().lines().toList()).containsExactly("web-1", "web-2");
    }

    @Test
    void fishCompletesNames() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(installed("fish"), "fish is not installed (bin/test-deps.sh)");
        Path script = script("fish");
        Result syntax = run("fish", "-n", script.toString());
        assertThat(syntax.code()).as(syntax.err()).isZero();

        assertThat(fish(script, "svc targets describe ")).containsExactly("db-1", "web-1", "web-2");
        assertThat(fish(script, "svc operation call k8s@1.0 k8s.pod.")).containsExactly("k8s.pod.list", "k8s.pod.logs");
        assertThat(fish(script, "svc operation call ")).containsExactly("k8s@1.0");
        assertThat(fish(script, "svc k8s pod list --target w")).containsExactly("web-1", "web-2");
        assertThat(fish(script, "svc version -o t")).containsExactly("table");
    }

    @Test
    void zshGetsTheBashScriptThroughBashcompinit() {
        assertScript("zsh").startsWith("# svc completion for zsh")
                .contains("autoload -U +X bashcompinit && bashcompinit")
                .contains("complete -F _complete_svc")
                .contains("pod").contains("restart");
    }

    @Test
    void fishScriptKnowsEveryCommandPath() {
        assertScript("fish").contains("complete -c svc -f")
                .contains("'svc k8s pod'")
                .contains("complete -c svc -n '__svc_at \"svc k8s pod\"' -a 'list' -d 'List pods [k8s.pod.list, read]'")
                .contains("complete -c svc -n '__svc_at \"svc k8s pod list\"' -l 'all-namespaces'")
                .contains("complete -c svc -n '__svc_at \"svc\"' -a 'login'")
                .contains("complete -c svc -n '__svc_at \"svc version\"' -s 'o' -l 'output' -x -a 'json yaml table wide jsonpath='");
    }

    @Test
    void unknownShellIsAUsageError() {
        Result r = backplane.svc("completion", "tcsh");

        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("tcsh").contains("bash, zsh, fish");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void withoutABackplaneTheScriptHasTheBuiltInCommands() {
        backplane.env().remove("SVC_BACKPLANE");

        Result r = backplane.svc("completion", "bash");

        assertThat(r.code()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).contains("complete -F _complete_svc").contains("bootstrap-clients").doesNotContain("k8s");
        assertThat(r.err()).contains("no family verbs");
    }

    /** Asserts that {@code svc completion <shell>} succeeds and hands back its script for what it must hold. */
    private AbstractStringAssert<?> assertScript(String shell) {
        Result r = backplane.svc("completion", shell);
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.OK);
        return assertThat(r.out());
    }

    /** The words bash offers for the last of {@code words}, through the script's completion function. */
    private List<String> complete(Path script, String... words) throws Exception {
        StringBuilder array = new StringBuilder();
        for (String w : words) {
            array.append(" '").append(w).append("'");
        }
        String line = String.join(" ", words);
        Result r = bash("source " + script + " && COMP_WORDS=(" + array + ") && COMP_CWORD=" + (words.length - 1)
                + " && COMP_LINE='" + line + "' && COMP_POINT=" + line.length()
                + " && _complete_svc svc '" + words[words.length - 1] + "' '" + words[words.length - 2] + "'"
                + " && printf '%s\\n' \"${COMPREPLY[@]}\"");
        assertThat(r.code()).as(r.err()).isZero();
        return r.out().lines().map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    /** What fish offers for {@code line} (the completions only, without their descriptions). */
    private List<String> fish(Path script, String line) throws Exception {
        Result r = run("fish", "--no-config", "-c", "source " + script + "; complete -C '" + line + "'");
        assertThat(r.code()).as(r.err()).isZero();
        return r.out().lines().map(l -> l.split("\t")[0]).toList();
    }

    /** {@code svc completion <shell>} saved to a file, with a real svc on the shells' PATH (see {@link #shellEnv}). */
    private Path script(String shell) throws Exception {
        Result r = backplane.svc("completion", shell);
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.OK);
        Path script = backplane.home().resolve("svc." + shell);
        Files.writeString(script, r.out());
        Path bin = Files.createDirectories(backplane.home().resolve("bin"));
        Path svc = bin.resolve("svc");
        Files.writeString(svc, "#!/bin/sh\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java")
                + "' -cp '" + System.getProperty("java.class.path") + "' dev.backplane.cli.Svc \"$@\"\n");
        assertThat(svc.toFile().setExecutable(true)).isTrue();
        shellEnv = new java.util.HashMap<>(backplane.env());
        shellEnv.put("PATH", bin + java.io.File.pathSeparator + System.getenv("PATH"));
        shellEnv.put(CompleteCommand.TIMEOUT_ENV, "10000"); // a loaded machine must not fail the test; down is quick
        return script;
    }

    private Result bash(String command) throws Exception {
        return run("bash", "-c", command);
    }

    private Result run(String... command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command);
        if (shellEnv != null) {
            pb.environment().putAll(shellEnv);
        }
        Process p = pb.start();
        p.getOutputStream().close();
        java.util.concurrent.CompletableFuture<byte[]> err = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return p.getErrorStream().readAllBytes();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), out, new String(err.get(), StandardCharsets.UTF_8));
    }

    private static boolean installed(String shell) {
        return java.util.stream.Stream.of(System.getenv("PATH").split(java.io.File.pathSeparator))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, shell)));
    }
}
