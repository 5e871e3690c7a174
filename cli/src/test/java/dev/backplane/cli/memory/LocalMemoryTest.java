package dev.backplane.cli.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.cli.Svc;
import dev.backplane.cli.common.ExitCodes;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading an agent's local memory directory into a migration plan (no backplane involved). */
class LocalMemoryTest {

    @TempDir
    Path tmp;

    @Test
    void aMemoryFileBecomesAnEntryWhoseScopeFollowsItsType() {
        var p = LocalMemory.plan("Prefers_YAML output.md", """
                ---
                name: yaml preference
                description: The operator wants YAML, not JSON, in answers
                type: feedback
                tags: [output, style]
                ---
                Render results as YAML unless asked otherwise.
                """, "alice");
        assertThat(p.skip()).isEmpty();
        assertThat(p.slug()).isEqualTo("prefers_yaml-output");
        assertThat(p.scope()).as("feedback is personal").isEqualTo("user");
        assertThat(p.tags()).containsExactly("migrated", "type:feedback", "output", "style");
        assertThat(p.body()).isEqualTo("The operator wants YAML, not JSON, in answers\n\nRender results as YAML unless "
                + "asked otherwise.");
        assertThat(LocalMemory.plan("p.md", "---\ntype: project\n---\nthe shop runs on k8s", "alice").scope())
                .isEqualTo("user-tenant");
        assertThat(LocalMemory.plan("p.md", "---\ntype: reference\n---\nthe runbook index", "alice").scope())
                .isEqualTo("user-tenant");
        assertThat(LocalMemory.plan("p.md", "---\ntype: project\nscope: tenant\n---\nshared", "alice").scope())
                .as("front matter scope: wins").isEqualTo("tenant");
    }

    @Test
    void filesThatCannotBeEntriesAreSkippedWithAReason() {
        assertThat(LocalMemory.plan("n.md", "just text, no front matter", "alice").skip()).get().asString()
                .contains("no front matter");
        assertThat(LocalMemory.plan("n.md", "---\ntype: user\n---\n  \n", "alice").skip()).get().asString()
                .contains("empty body");
        assertThat(LocalMemory.plan("n.md", "---\ntype: user\nscope: target\n---\nx y", "alice").skip()).get()
                .asString().contains("needs target:");
        assertThat(LocalMemory.plan("n.md", "---\nscope: everyone\n---\nx y", "alice").skip()).get().asString()
                .contains("not one of");
    }

    @Test
    void machineLocalContentIsRecognisedUnlessOptedOut() {
        assertThat(LocalMemory.machineLocal("build in /home/alice/src/shop first", "bob")).isPresent();
        assertThat(LocalMemory.machineLocal("notes live in ~/notes", "bob")).isPresent();
        assertThat(LocalMemory.machineLocal("copy to C:\\Users\\bob\\work", "bob")).isPresent();
        assertThat(LocalMemory.machineLocal("alice asked; alice agreed; tell Alice", "alice")).get().asString()
                .contains("3 times");
        assertThat(LocalMemory.machineLocal("alice asked once", "alice")).isEmpty();
        assertThat(LocalMemory.machineLocal("use /home/alice/x " + LocalMemory.OPT_OUT, "bob")).isEmpty();
        assertThat(LocalMemory.machineLocal("the API lives at /api/v1/home/x and a/b~/c", "bob")).isEmpty();
    }

    @Test
    void theDefaultSourceIsTheProjectsMemoryDirectory() {
        assertThat(LocalMemory.defaultSource(Map.of("HOME", "/h", "PWD", "/work/my.repo")))
                .isEqualTo(Path.of("/h/.claude/projects/-work-my-repo/memory"));
        assertThat(LocalMemory.frontMatter("name: x\ntags:\n  - a\n  - 'b'\ntype: \"user\"\n").values())
                .isEqualTo(Map.of("name", "x", "tags", List.of("a", "b"), "type", "user"));
        assertThat(LocalMemory.frontMatter("name: x\ntags: [a, \"b, c\"]\n# a comment\n").values())
                .isEqualTo(Map.of("name", "x", "tags", List.of("a", "b, c")));
        assertThat(LocalMemory.frontMatter("description: |\n  two\n  lines\n").values())
                .isEqualTo(Map.of("description", "two\nlines\n"));
        assertThat(LocalMemory.frontMatter("name: [unclosed\n").invalid()).get().asString()
                .startsWith("front matter is not valid YAML");
        assertThat(LocalMemory.frontMatter("- just\n- a list\n").invalid()).get().asString().contains("not a mapping");
        assertThat(LocalMemory.plan("bad.md", "---\nname: [unclosed\n---\nbody\n", "alice").skip()).get().asString()
                .startsWith("front matter is not valid YAML");
    }

    @Test
    void scanSkipsTheIndexAndDryRunNeedsNoBackplaneAndWritesNothing() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("memory"));
        Files.writeString(dir.resolve("MEMORY.md"), "- [yaml](yaml.md)\n");
        Files.writeString(dir.resolve("yaml.md"), "---\nname: yaml\ntype: user\n---\nPrefer YAML output.\n");
        Files.writeString(dir.resolve("paths.md"), "---\ntype: project\n---\nThe repo is at /Users/alice/shop\n");
        assertThat(LocalMemory.scan(dir, "alice")).extracting(LocalMemory.Planned::file)
                .containsExactly("paths.md", "yaml.md");

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Path xdg = tmp.resolve("xdg");
        int code = Svc.run(new String[] {"migrate", "memory", "--source", dir.toString(), "--dry-run"},
                new PrintWriter(out, true), new PrintWriter(err, true), new ByteArrayInputStream(new byte[0]),
                Map.of("XDG_CONFIG_HOME", xdg.toString(), "HOME", tmp.toString(), "SVC_TOKEN_STORE", "file"));
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("user/yaml").contains("migrate").contains("skip: machine-local")
                .contains("dry run: 1 to migrate, 1 skipped; nothing written");
        assertThat(Files.exists(xdg)).as("no ledger, no config").isFalse();

        code = Svc.run(new String[] {"migrate", "memory", "--source", dir.toString(), "--non-interactive"},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true),
                new ByteArrayInputStream(new byte[0]), Map.of("XDG_CONFIG_HOME", xdg.toString(), "HOME",
                        tmp.toString(), "SVC_TOKEN_STORE", "file"));
        assertThat(code).as("a real run needs a backplane").isEqualTo(ExitCodes.NOT_LOGGED_IN);
        assertThat(Svc.run(new String[] {"migrate", "memory", "--source", tmp.resolve("nope").toString()},
                new PrintWriter(new StringWriter(), true), new PrintWriter(new StringWriter(), true),
                new ByteArrayInputStream(new byte[0]), Map.of("XDG_CONFIG_HOME", xdg.toString())))
                .isEqualTo(ExitCodes.USAGE);
    }
}
