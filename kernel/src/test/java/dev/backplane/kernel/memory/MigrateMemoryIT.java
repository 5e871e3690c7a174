package dev.backplane.kernel.memory;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelTest;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@code svc migrate memory}: an agent's local memory directory into backplane memory, against a real kernel. */
@KernelTest
class MigrateMemoryIT {

    private static TestIssuer issuer;
    private static TestKernel kernel;
    private final UUID tenant = UUID.randomUUID();
    private final String alice = issuer.token("alice-" + tenant, tenant, "operator");

    private static Path memoryDir(Path home) throws Exception {
        Path dir = Files.createDirectories(home.resolve("memory"));
        Files.writeString(dir.resolve("MEMORY.md"), "- [YAML output](yaml_output.md)\n- [Shop](shop.md)\n");
        Files.writeString(dir.resolve("yaml_output.md"), """
                ---
                name: yaml output
                description: Show kubectl results as YAML
                type: feedback
                ---
                The operator reads YAML faster than JSON tables.
                """);
        Files.writeString(dir.resolve("shop.md"), """
                ---
                name: shop project
                description: The shop runs on the k8s-prod cluster
                type: project
                ---
                Deployments go through Argo CD; never kubectl apply by hand.
                """);
        Files.writeString(dir.resolve("checkout.md"), """
                ---
                name: checkout path
                type: reference
                ---
                My clone lives in /home/alice/src/shop.
                """);
        Files.writeString(dir.resolve("scratch.md"), "no front matter: not a memory\n");
        return dir;
    }

    private JsonNode memories() {
        return kernel.get("/api/v1/memory?limit=500", alice).json();
    }

    @Test
    void confirmDryRunMigrateMarkAndReRun() throws Exception {
        Path home = TempDirs.create("svc-home");
        Path dir = memoryDir(home);
        CliRunner cli = kernel.cli(home, alice);
        String source = dir.toString();

        var noAnswer = cli.run("migrate", "memory", "--source", source);
        assertThat(noAnswer.exitCode()).as("no one on stdin to confirm: " + noAnswer).isEqualTo(2);
        assertThat(noAnswer.err()).contains("--non-interactive");
        var declined = cli.run(Map.of(), "n\n", "migrate", "memory", "--source", source);
        assertThat(declined.exitCode()).isEqualTo(1);
        assertThat(declined.err()).contains("aborted: nothing was migrated");
        var dry = cli.run("migrate", "memory", "--source", source, "--dry-run");
        assertThat(dry.exitCode()).as(dry.toString()).isZero();
        assertThat(dry.out()).contains("user/yaml_output").contains("user-tenant/shop")
                .contains("skip: machine-local").contains("no front matter").doesNotContain("MEMORY")
                .contains("dry run: 2 to migrate, 2 skipped; nothing written");
        assertThat(memories()).as("nothing written before a confirmed run").isEmpty();

        var confirmed = cli.run(Map.of(), "y\n", "migrate", "memory", "--source", source, "--mark-migrated");
        assertThat(confirmed.exitCode()).as(confirmed.toString()).isZero();
        assertThat(confirmed.err()).contains("migrate 2 memory entries to " + kernel.url() + "? [y/N]");
        assertThat(confirmed.out()).contains("migrated 2, skipped 2, errored 0");
        JsonNode yaml = kernel.get("/api/v1/memory/user/yaml_output", alice).json();
        assertThat(yaml.path("body").asText()).isEqualTo("Show kubectl results as YAML\n\nThe operator reads YAML "
                + "faster than JSON tables.");
        assertThat(yaml.path("expires_at").isNull()).as("migrated memory keeps no expiry").isTrue();
        assertThat(yaml.path("metadata").path("tags").toString()).isEqualTo("[\"migrated\",\"type:feedback\"]");
        assertThat(kernel.get("/api/v1/memory/user-tenant/shop", alice).json().path("body").asText())
                .contains("Argo CD");

        var rerun = cli.run("migrate", "memory", "--source", source, "--non-interactive");
        assertThat(rerun.exitCode()).isZero();
        assertThat(rerun.out()).contains("already migrated").contains("nothing to migrate (4 skipped)");

        Files.writeString(dir.resolve("shop.md"), Files.readString(dir.resolve("shop.md")).replace("Argo CD", "Flux"));
        var edited = cli.run("migrate", "memory", "--source", source, "--non-interactive", "--mark-migrated",
                "--include-machine-local", "--json");
        assertThat(edited.exitCode()).as(edited.toString()).isZero();
        JsonNode report = new com.fasterxml.jackson.databind.ObjectMapper().readTree(edited.out());
        assertThat(report.path("summary").toString()).isEqualTo("{\"migrated\":2,\"skipped\":2,\"errored\":0,"
                + "\"planned\":2}");
        assertThat(kernel.get("/api/v1/memory/user-tenant/shop", alice).json().path("body").asText())
                .as("an edited file is migrated again, in place").contains("Flux");
        assertThat(kernel.get("/api/v1/memory/user-tenant/checkout", alice).status())
                .as("machine-local included on request").isEqualTo(200);
        assertThat(memories()).hasSize(3);
    }

    @Test
    void aTenantScopeAskedForByAnOperatorIsAnErrorForThatEntryOnly() throws Exception {
        Path home = TempDirs.create("svc-home");
        Path dir = Files.createDirectories(home.resolve("mem"));
        Files.writeString(dir.resolve("shared.md"), "---\ntype: project\nscope: tenant\n---\nEveryone should know this.\n");
        Files.writeString(dir.resolve("mine.md"), "---\ntype: user\n---\nI like short answers.\n");
        var r = kernel.cli(home, alice).run("migrate", "memory", "--source", dir.toString(), "--non-interactive");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).contains("shared.md: error: insufficient_role").contains("migrated 1, skipped 0, errored 1");
        assertThat(kernel.get("/api/v1/memory/user/mine", alice).status()).isEqualTo(200);
    }
}
