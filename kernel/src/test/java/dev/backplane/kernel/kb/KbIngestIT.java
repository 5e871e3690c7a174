package dev.backplane.kernel.kb;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TestKernel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code svc kb ingest}: a directory on the backplane host, fenced by the caller's tenant folder of
 * kb.ingest-root ({@code <root>/<tenant-id>/}), over REST and the CLI.
 */
class KbIngestIT extends PerTestTenant {

    private static Path root;
    private static Path outside;

    @BeforeKernel
    static void ingestRoot(KernelSetup setup) throws Exception {
        root = Files.createDirectories(setup.work().resolve("kb-import"));
        outside = Files.createDirectories(setup.work().resolve("outside"));
        Files.writeString(outside.resolve("secret.md"), "# Secret\nnot for the kb");
        setup.setting("SVC_KB_INGEST_ROOT", root.toString());
    }

    /** The tenant's folder below the ingest root, where its files are staged. */
    private static Path folder(UUID tenant) throws Exception {
        return Files.createDirectories(root.resolve(tenant.toString()));
    }

    private Path corpus(String name) throws Exception {
        Path dir = Files.createDirectories(folder(tenant).resolve(name));
        Files.createDirectories(dir.resolve("runbooks"));
        Files.createDirectories(dir.resolve(".drafts"));
        Files.writeString(dir.resolve("runbooks/pg-failover.md"), """
                ---
                kind: runbook
                tags: [db, ha]
                ---
                # PostgreSQL failover
                Promote the standby with pg_ctl promote, then repoint the service.
                """);
        Files.writeString(dir.resolve("runbooks/K8s CrashLoop.MD"), "A pod in CrashLoopBackOff: read the previous "
                + "container's logs.");
        Files.writeString(dir.resolve("notes.txt"), "The change freeze starts every Friday at 15:00.");
        Files.writeString(dir.resolve("broken.md"), "---\nkind: runbook\nthe front matter never ends\n");
        Files.writeString(dir.resolve("picture.png"), "not text");
        Files.writeString(dir.resolve(".drafts/wip.md"), "# not ready");
        Files.createSymbolicLink(dir.resolve("leak.md"), outside.resolve("secret.md"));
        return dir;
    }

    @Test
    void dryRunWritesNothingThenIngestCreatesReingestLeavesUnchangedBodiesAlone() throws Exception {
        Path dir = corpus("team-" + tenant);
        CliRunner cli = kernel.cli(admin);
        var dry = cli.run("kb", "ingest", dir.getFileName().toString(), "--dry-run");
        assertThat(dry.exitCode()).as("a file fails, so exit 1: " + dry).isEqualTo(1);
        assertThat(dry.out()).contains("dry run: nothing written").contains("runbooks-pg-failover")
                .contains("runbooks-k8s-crashloop").contains("notes").contains("front matter opened with '---' is not closed")
                .contains("leak.md").contains("would be: created 3, updated 0, unchanged 0, errors 2")
                .doesNotContain("wip").doesNotContain("picture");
        assertThat(kernel.get("/api/v1/kb", admin).json()).as("dry run wrote nothing").isEmpty();

        var real = cli.run("kb", "ingest", dir.toString());
        assertThat(real.exitCode()).as(real.toString()).isEqualTo(1);
        assertThat(real.err()).as("progress on stderr").contains("ingest: 5/5 files (created 3, updated 0, unchanged 0, "
                + "errors 2)").contains("2 file(s) could not be ingested");
        assertThat(real.out()).contains("done: created 3");
        JsonNode entry = kernel.get("/api/v1/kb/runbooks-pg-failover", operator).json();
        assertThat(entry.path("body").asText()).startsWith("# PostgreSQL failover");
        assertThat(entry.path("metadata").path("kind").asText()).isEqualTo("runbook");
        assertThat(entry.path("metadata").path("tags").toString()).isEqualTo("[\"db\",\"ha\"]");
        assertThat(entry.path("metadata").path("source").asText()).isEqualTo(dir.getFileName() + "/runbooks/pg-failover.md");
        assertThat(kernel.get("/api/v1/kb/leak", operator).status()).as("a link out of the root is not read").isEqualTo(404);
        assertThat(kernel.send("POST", "/api/v1/kb/search", operator, "{\"query\": \"container restarting\"}", Map.of())
                .json().path("hits").get(0).path("slug").asText()).isEqualTo("runbooks-k8s-crashloop");

        List<String> embedded = KbChunks.versions(kernel, tenant, "runbooks-pg-failover");
        Files.writeString(dir.resolve("notes.txt"), "The change freeze starts every Thursday at 15:00.");
        Files.delete(dir.resolve("broken.md"));
        Files.delete(dir.resolve("leak.md"));
        var again = cli.run("kb", "ingest", dir.toString(), "--json");
        assertThat(again.exitCode()).as(again.toString()).isZero();
        JsonNode job = new com.fasterxml.jackson.databind.ObjectMapper().readTree(again.out());
        assertThat(job.path("progress")).isEqualTo(new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                "{\"total\":3,\"done\":3,\"created\":0,\"updated\":1,\"unchanged\":2,\"errors\":0}"));
        assertThat(KbChunks.versions(kernel, tenant, "runbooks-pg-failover")).as("unchanged body: not embedded again")
                .isEqualTo(embedded);
        assertThat(kernel.get("/api/v1/kb/notes", operator).json().path("body").asText()).contains("Thursday");

        var poll = kernel.get("/api/v1/kb/ingest-jobs/" + job.path("job_id").asText(), admin);
        assertThat(poll.json().path("status").asText()).isEqualTo("succeeded");
        String stranger = issuer.token("admin", UUID.randomUUID(), "tenant_admin");
        assertThat(kernel.get("/api/v1/kb/ingest-jobs/" + job.path("job_id").asText(), stranger).status())
                .as("another tenant's job").isEqualTo(404);
    }

    @Test
    void onlyTheTenantsFolderCanBeReadAndOnlyByATenantAdmin() throws Exception {
        Path mine = folder(tenant);
        Files.createSymbolicLink(mine.resolve("escape"), outside);
        assertThat(ingest(operator, "{\"directory\": \".\", \"dry_run\": true}").status()).isEqualTo(403);
        for (String dir : List.of("../outside", outside.toString(), "/etc", "escape", "x/../../outside",
                "../../outside")) {
            var r = ingest(admin, "{\"directory\": \"" + dir + "\", \"dry_run\": true}");
            assertThat(r.status()).as(dir).isEqualTo(422);
            assertThat(r.json().path("error").asText()).as(dir).isEqualTo("directory_outside_ingest_root");
            assertThat(r.json().path("extras").path("ingest_root").asText()).isEqualTo(mine.toString());
        }
        assertThat(ingest(admin, "{\"directory\": \"nope\"}").json().path("error").asText())
                .isEqualTo("directory_not_found");
        assertThat(ingest(admin, "{}").json().path("error").asText()).isEqualTo("invalid_directory");
        assertThat(kernel.get("/api/v1/kb/ingest-jobs/not-a-uuid", admin).status()).isEqualTo(422);
        var cli = kernel.cli(admin).run("kb", "ingest", "../outside");
        assertThat(cli.exitCode()).isEqualTo(1);
        assertThat(cli.err()).contains("directory_outside_ingest_root");
        assertThat(kernel.cli(operator).run("kb", "ingest", ".").exitCode()).as("denied").isEqualTo(3);

        UUID fresh = UUID.randomUUID();
        var noFolder = ingest(issuer.tenantAdmin(fresh), "{\"directory\": \"runbooks\", \"dry_run\": true}");
        assertThat(noFolder.status()).isEqualTo(422);
        assertThat(noFolder.json().path("error").asText()).isEqualTo("ingest_root_missing");
        assertThat(noFolder.json().path("extras").path("ingest_root").asText())
                .isEqualTo(root.resolve(fresh.toString()).toString());
    }

    @Test
    void aTenantAdminCannotIngestOrProbeAnotherTenantsStagedDirectory() throws Exception {
        UUID b = UUID.randomUUID();
        String bAdmin = issuer.tenantAdmin(b);
        Path bRunbooks = Files.createDirectories(folder(b).resolve("b-runbooks-" + tenant));
        Files.writeString(bRunbooks.resolve("b-secret.md"), "# Tenant B only\nThe break-glass procedure of B.");
        Path mine = folder(tenant);
        Files.createDirectories(mine.resolve("mine"));
        String bDir = bRunbooks.getFileName().toString();

        // A's requests for B's directory, by every spelling: refused, and exactly as a directory that is not there
        Map<String, String> attempts = new java.util.LinkedHashMap<>();
        attempts.put(bRunbooks.toString(), mine.resolve("missing-" + tenant).toString());
        attempts.put(root.resolve(b.toString()).toString(), mine.resolve("missing-" + tenant).toString());
        attempts.put(root.toString(), mine.resolve("missing-" + tenant).toString());
        attempts.put(root.resolve(b.toString()).resolve("never-staged").toString(), mine.resolve("missing-" + tenant)
                .toString());
        for (Map.Entry<String, String> a : attempts.entrySet()) {
            for (boolean dryRun : List.of(true, false)) {
                var refused = ingest(admin, "{\"directory\": \"" + a.getKey() + "\", \"dry_run\": " + dryRun + "}");
                var missing = ingest(admin, "{\"directory\": \"" + a.getValue() + "\", \"dry_run\": " + dryRun + "}");
                assertThat(refused.status()).as(a.getKey()).isEqualTo(422).isEqualTo(missing.status());
                assertThat(refused.json().path("error").asText()).as(a.getKey()).isEqualTo("directory_not_found");
                assertThat(refused.json().path("message").asText()).as(a.getKey())
                        .isEqualTo(missing.json().path("message").asText().replace(a.getValue(), a.getKey()));
                assertThat(refused.json().path("extras")).as(a.getKey()).isEqualTo(missing.json().path("extras"));
            }
        }
        var relative = ingest(admin, "{\"directory\": \"" + bDir + "\"}");
        assertThat(relative.status()).isEqualTo(422);
        assertThat(relative.json().path("error").asText()).isEqualTo("directory_not_found");
        assertThat(ingest(admin, "{\"directory\": \"../" + b + "/" + bDir + "\"}").json().path("error").asText())
                .isEqualTo("directory_outside_ingest_root");

        var cli = kernel.cli(admin).run("kb", "ingest", bRunbooks.toString());
        assertThat(cli.exitCode()).as(cli.toString()).isEqualTo(1);
        assertThat(cli.err()).contains("directory_not_found").doesNotContain("b-secret");
        assertThat(kernel.cli(admin).run("kb", "ingest", bDir).err()).contains("directory_not_found");
        assertThat(kernel.get("/api/v1/kb", admin).json()).as("nothing of B reached A's kb").isEmpty();
        assertThat(kernel.get("/api/v1/kb/b-secret", admin).status()).isEqualTo(404);

        // B itself ingests it, and A still sees none of it
        var own = kernel.cli(bAdmin).run("kb", "ingest", bDir);
        assertThat(own.exitCode()).as(own.toString()).isZero();
        assertThat(kernel.get("/api/v1/kb/b-secret", bAdmin).json().path("metadata").path("source").asText())
                .as("source is relative to the tenant's folder").isEqualTo(bDir + "/b-secret.md");
        assertThat(kernel.get("/api/v1/kb/b-secret", admin).status()).isEqualTo(404);
    }

    private TestKernel.Response ingest(String token, String body) {
        return kernel.send("POST", "/api/v1/kb/ingest", token, body, Map.of());
    }
}
