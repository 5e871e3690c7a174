package dev.backplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.cli.LoopbackBackplane.Result;
import dev.backplane.cli.common.ExitCodes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
    final LoopbackBackplane backplane = new LoopbackBackplane().answer("/api/v1/catalog/operations", CATALOG);

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

    private static Result bash(String command) throws Exception {
        Process p = new ProcessBuilder("bash", "-c", command).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), out, err);
    }
}
