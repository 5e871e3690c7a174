package dev.backplane.kernel.conventions;

import static dev.backplane.kernel.testing.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.ScriptedModel;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestKernel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * Conventions end to end against the real kernel and PostgreSQL: CRUD with versions and history diffs,
 * roles on every write, bad input, tenant bounds, the MCP instructions packed under the token budget
 * (handshake and stateless revision) and an agent run's system prompt, search over workflow and
 * reference conventions and its eval surface, and the CLI including its editor mode.
 */
class ConventionsIT extends PerTestTenant {

    /** Small, so a test can go over it with a few conventions. */
    private static final int BUDGET = 120;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final List<String> LOG = new java.util.concurrent.CopyOnWriteArrayList<>();
    private static final Handler CAPTURE = new Handler() {
        @Override
        public void publish(LogRecord r) {
            LOG.add(r.getMessage());
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    /** Held, so the logger (weakly referenced by JUL) keeps its handler. */
    private static final Logger CONVENTIONS_LOG = Logger.getLogger(Conventions.class.getName());
    private static ScriptedModel model;

    @BeforeKernel
    static void start(KernelSetup setup) {
        setup.setting("SVC_CONVENTIONS_MCP_TOKEN_BUDGET", String.valueOf(BUDGET));
        model = ScriptedModel.forKernel(setup);
        CONVENTIONS_LOG.addHandler(CAPTURE);
    }

    private static Map<String, Object> convention(String slug, String kind, Integer priority, String body) {
        Map<String, Object> m = new HashMap<>(Map.of("slug", slug, "title", "Title of " + slug, "kind", kind, "body", body));
        if (priority != null) {
            m.put("priority", priority);
        }
        return m;
    }

    private JsonNode create(String token, Map<String, Object> body) {
        var r = kernel.post("/api/v1/conventions", token, body);
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        return r.json();
    }

    private static void assertError(TestKernel.Response r, int status, String code, String field) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.json().path("error").asText()).as(r.body()).isEqualTo(code);
        if (field != null) {
            assertThat(r.json().path("extras").path("field").asText()).as(r.body()).isEqualTo(field);
        }
    }

    private long governanceRows(String route) {
        return kernel.jdbc().queryOne("SELECT count(*) FROM audit_rows WHERE tenant_id = ? AND op_id = ?",
                rs -> rs.getLong(1), tenant, "svc.governance." + route).orElseThrow();
    }

    @Test
    void everyEditIsAVersionAndTheHistoryShowsWhoChangedWhatWithADiff() {
        JsonNode c = create(admin, convention("change-windows", "workflow", null, "Changes go in a window.\nAsk first.\n"));
        assertThat(c.path("version").asInt()).isEqualTo(1);
        assertThat(c.path("priority").asInt()).as("default priority").isZero();
        assertError(kernel.post("/api/v1/conventions", admin, convention("change-windows", "reference", 1, "x")), 409,
                "convention_exists", null);

        String other = issuer.token("second-admin", tenant, "tenant_admin");
        var edited = kernel.patch("/api/v1/conventions/change-windows", other, Map.of("title", "Change windows",
                "body", "Changes go in a window.\nAsk the on-call first.\n"));
        assertThat(edited.status()).as(edited.body()).isEqualTo(200);
        assertThat(edited.json().path("version").asInt()).isEqualTo(2);
        assertThat(edited.json().path("updated_by").asText()).isEqualTo("second-admin");
        assertThat(kernel.patch("/api/v1/conventions/change-windows", admin, Map.of("priority", 40, "kind", "reference"))
                .json().path("version").asInt()).isEqualTo(3);
        assertThat(kernel.patch("/api/v1/conventions/change-windows", admin, Map.of("priority", 40)).json()
                .path("version").asInt()).as("a write that changes nothing is no new version").isEqualTo(3);
        assertError(kernel.patch("/api/v1/conventions/change-windows", admin, Map.of("body", "late", "expected_version", 2)),
                409, "version_conflict", null);

        var show = kernel.get("/api/v1/conventions/change-windows", operator).json();
        assertThat(show.path("title").asText()).isEqualTo("Change windows");
        assertThat(show.path("kind").asText()).isEqualTo("reference");
        assertThat(show.path("body").asText()).contains("Ask the on-call first.");

        JsonNode history = kernel.get("/api/v1/conventions/change-windows/history", operator).json().path("versions");
        assertThat(history).hasSize(3);
        assertThat(history.get(0).path("version").asInt()).isEqualTo(3);
        assertThat(history.get(0).path("changes").toString()).contains("\"field\":\"priority\",\"from\":0,\"to\":40")
                .contains("\"field\":\"kind\",\"from\":\"workflow\",\"to\":\"reference\"");
        assertThat(history.get(0).path("body_diff").asText()).isEmpty();
        assertThat(history.get(1).path("changed_by").asText()).isEqualTo("second-admin");
        assertThat(history.get(1).path("changes").toString()).contains("\"field\":\"title\"").contains("\"field\":\"body\"");
        assertThat(history.get(1).path("body_diff").asText()).contains("--- a/change-windows (version 1)")
                .contains("+++ b/change-windows (version 2)").contains("\n-Ask first.\n").contains("\n+Ask the on-call first.\n")
                .contains("\n Changes go in a window.\n");
        assertThat(history.get(2).path("changes").toString()).contains("created");
        assertThat(history.get(2).path("body_diff").asText()).startsWith("--- /dev/null");
        JsonNode last = kernel.get("/api/v1/conventions/change-windows/history?limit=1", operator).json().path("versions");
        assertThat(last).hasSize(1);

        var list = kernel.get("/api/v1/conventions?kind=reference", operator).json().path("conventions");
        assertThat(list).hasSize(1);
        assertThat(list.get(0).has("body")).as("a list carries no bodies").isFalse();
        assertThat(kernel.get("/api/v1/conventions?kind=workflow", operator).json().path("conventions")).isEmpty();

        assertThat(kernel.delete("/api/v1/conventions/change-windows", admin).status()).isEqualTo(200);
        assertError(kernel.get("/api/v1/conventions/change-windows", operator), 404, "convention_not_found", null);
        assertError(kernel.get("/api/v1/conventions/change-windows/history", operator), 404, "convention_not_found", null);
        assertError(kernel.delete("/api/v1/conventions/change-windows", admin), 404, "convention_not_found", null);

        assertThat(governanceRows("POST /api/v1/conventions")).as("each write has its governance audit row").isEqualTo(1);
        assertThat(governanceRows("PATCH /api/v1/conventions/{slug}")).isEqualTo(3);
        assertThat(governanceRows("DELETE /api/v1/conventions/{slug}")).isEqualTo(1);
    }

    @Test
    void writesNeedTenantAdminAndReadsOperator() {
        create(admin, convention("roles", "workflow", 1, "Body."));
        assertError(kernel.post("/api/v1/conventions", operator, convention("nope", "workflow", 1, "B")), 403,
                "insufficient_role", null);
        assertError(kernel.patch("/api/v1/conventions/roles", operator, Map.of("title", "x")), 403, "insufficient_role",
                null);
        assertError(kernel.delete("/api/v1/conventions/roles", operator), 403, "insufficient_role", null);
        assertThat(kernel.get("/api/v1/conventions/roles", operator).status()).isEqualTo(200);
        String readOnly = issuer.token("ro", tenant, "read_only");
        assertError(kernel.get("/api/v1/conventions", readOnly), 403, "insufficient_role", null);
        assertThat(kernel.get("/api/v1/conventions/roles", operator).json().path("version").asInt()).isEqualTo(1);
        assertError(kernel.get("/api/v1/conventions/nope", operator), 404, "convention_not_found", null);
    }

    @Test
    void badInputIsRefusedWithTheFieldNamed() {
        for (String slug : List.of("Upper", "under_score", "-lead", "", "x".repeat(129), "sp ace", "dot.ted")) {
            assertError(kernel.post("/api/v1/conventions", admin, convention(slug, "workflow", 0, "b")), 422,
                    "invalid_slug", "slug");
        }
        create(admin, convention("x".repeat(128), "workflow", 0, "longest slug"));
        assertError(kernel.post("/api/v1/conventions", admin, convention("k", "policy", 0, "b")), 422,
                "invalid_convention", "kind");
        for (Object p : List.of(32768, -32769, 1.5, "high", 99999999999L)) {
            var body = convention("p", "workflow", null, "b");
            body.put("priority", p);
            assertError(kernel.post("/api/v1/conventions", admin, body), 422, "invalid_convention", "priority");
        }
        create(admin, convention("edges", "operational", 32767, "top"));
        create(admin, convention("edges-low", "operational", -32768, "bottom"));
        assertError(kernel.post("/api/v1/conventions", admin, convention("b", "workflow", 0, " \n")), 422,
                "invalid_convention", "body");
        assertError(kernel.post("/api/v1/conventions", admin, convention("b", "workflow", 0, "é".repeat(32 * 1024 + 1))),
                422, "invalid_convention", "body");
        create(admin, convention("b", "workflow", 0, "a".repeat(64 * 1024)));
        var noTitle = convention("t", "workflow", 0, "b");
        noTitle.remove("title");
        assertError(kernel.post("/api/v1/conventions", admin, noTitle), 422, "invalid_convention", "title");
        noTitle.put("title", "two\nlines");
        assertError(kernel.post("/api/v1/conventions", admin, noTitle), 422, "invalid_convention", "title");
        assertError(kernel.post("/api/v1/conventions", admin, Map.of("slug", "u", "title", "t", "kind", "workflow",
                "body", "b", "colour", "red")), 422, "invalid_request", null);
        assertError(kernel.patch("/api/v1/conventions/b", admin, Map.of("slug", "renamed")), 422, "invalid_convention",
                "slug");
        assertError(kernel.patch("/api/v1/conventions/b", admin, Map.of()), 422, "invalid_convention", null);
        assertError(kernel.patch("/api/v1/conventions/b", admin, Map.of("kind", "other")), 422, "invalid_convention",
                "kind");
        assertError(kernel.patch("/api/v1/conventions/missing", admin, Map.of("title", "t")), 404,
                "convention_not_found", null);
        assertError(kernel.get("/api/v1/conventions?kind=other", operator), 422, "invalid_convention", "kind");
        assertError(kernel.get("/api/v1/conventions?limit=0", operator), 422, "invalid_limit", null);
        assertError(kernel.get("/api/v1/conventions/b/history?limit=501", operator), 422, "invalid_limit", null);
        assertError(kernel.post("/api/v1/conventions/search", operator, Map.of("query", "x", "kind", "operational")),
                422, "invalid_convention", "kind");
        assertError(kernel.post("/api/v1/conventions/search", operator, Map.of("query", " ")), 422, "invalid_query", null);
    }

    @Test
    void anotherTenantSeesNothing() throws Exception {
        create(admin, convention("secret-rule", "operational", 5, "Tenant A's operational rule."));
        create(admin, convention("secret-ref", "reference", 5, "Tenant A's reference about widgets."));
        UUID b = UUID.randomUUID();
        String adminB = issuer.tenantAdmin(b);
        assertError(kernel.get("/api/v1/conventions/secret-rule", adminB), 404, "convention_not_found", null);
        assertError(kernel.patch("/api/v1/conventions/secret-rule", adminB, Map.of("title", "x")), 404,
                "convention_not_found", null);
        assertError(kernel.delete("/api/v1/conventions/secret-ref", adminB), 404, "convention_not_found", null);
        assertThat(kernel.get("/api/v1/conventions", adminB).json().path("conventions")).isEmpty();
        assertThat(kernel.post("/api/v1/conventions/search", adminB, Map.of("query", "widgets reference")).json()
                .path("hits")).isEmpty();
        assertThat(instructions(issuer.mcpToken("agent-b", b, "operator"))).doesNotContain("Tenant A");
        create(adminB, convention("secret-rule", "workflow", 0, "B's own, same slug."));
        assertThat(kernel.get("/api/v1/conventions/secret-rule", admin).json().path("kind").asText())
                .isEqualTo("operational");
    }

    private static String instructions(String mcpToken) throws Exception {
        var r = mcp(mcpToken, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}", Map.of());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body()).path("result").path("instructions").asText();
    }

    private static HttpResponse<String> mcp(String token, String body, Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(kernel.url() + "/mcp"))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(b::header);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void operationalConventionsArePackedIntoAgentInstructionsWithinTheBudget() throws Exception {
        String token = issuer.mcpToken("packer", tenant, "operator");
        String bare = instructions(token);
        assertThat(bare).doesNotContain("Conventions of this tenant");

        create(admin, convention("ticket-first", "operational", 100, "Name the ticket in every work_ref."));
        create(admin, convention("long-rule", "operational", 50, "Before any change, read the runbook. "
                + "Then check the dashboards, then ask the owner, then wait for the window. ".repeat(4)));
        create(admin, convention("be-brief", "operational", -3, "Answer briefly."));
        create(admin, convention("how-to-deploy", "workflow", 1000, "Deploy on Tuesdays."));
        LOG.clear();
        String packed = instructions(token);
        assertThat(packed).startsWith(bare).contains("Conventions of this tenant")
                .contains("Name the ticket in every work_ref.").contains("Answer briefly.")
                .doesNotContain("read the runbook").doesNotContain("Deploy on Tuesdays");
        assertThat(packed.indexOf("ticket-first")).as("highest priority first").isLessThan(packed.indexOf("be-brief"));
        String section = packed.substring(packed.indexOf("Conventions of this tenant"));
        assertThat(ConventionPacker.tokens(section)).isLessThanOrEqualTo(BUDGET);
        assertThat(LOG).anySatisfy(l -> assertThat(l).contains("tenant " + tenant).contains("long-rule")
                .contains("token budget of " + BUDGET).doesNotContain("be-brief"));

        var discover = mcp(token, "{\"jsonrpc\":\"2.0\",\"id\":\"d\",\"method\":\"server/discover\",\"params\":{\"_meta\":"
                + "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":"
                + "{}}}}", Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "server/discover"));
        assertThat(JSON.readTree(discover.body()).path("result").path("instructions").asText())
                .as("the stateless revision's server/discover carries the same instructions").isEqualTo(packed);

        kernel.patch("/api/v1/conventions/long-rule", admin, Map.of("priority", 200, "body", "Read the runbook first."));
        String after = instructions(token);
        assertThat(after.indexOf("Read the runbook first.")).as("an edit reaches the next session")
                .isLessThan(after.indexOf("Name the ticket"));
    }

    @Test
    void anAgentRunsSystemPromptCarriesTheSameConventions() {
        create(admin, convention("agents-rule", "operational", 9, "Never restart on Fridays."));
        assertThat(kernel.post("/api/v1/agent-principals", admin, Map.of("name", "conv-bot")).status()).isEqualTo(201);
        assertThat(kernel.post("/api/v1/agents", admin, Map.of("name", "conv-agent", "identity_ref", "conv-bot",
                "system_prompt", "You triage.")).status()).isEqualTo(201);
        model.reset();
        model.then(text("done"));
        var run = kernel.post("/api/v1/agents/conv-agent/runs", operator, Map.of("input", "look"));
        assertThat(run.status()).as(run.body()).isBetween(200, 202);
        JsonNode system = model.requests().getFirst().path("messages").get(0);
        assertThat(system.path("role").asText()).isEqualTo("system");
        assertThat(system.path("content").asText()).startsWith("You triage.").contains("Conventions of this tenant")
                .contains("Never restart on Fridays.");
    }

    @Test
    void workflowAndReferenceConventionsAreSearchedAndEvaluated() {
        create(admin, convention("db-failover", "workflow", 0, "Promote the replica, then repoint the service.\n"
                + "eval: how do I fail over the database"));
        create(admin, convention("dns-ttl", "reference", 0, "Public DNS records keep a TTL of 300 seconds."));
        create(admin, convention("cert-rotation", "workflow", 0, "Rotate TLS certificates thirty days before expiry."));
        create(admin, convention("ops-only", "operational", 0, "Rotate TLS certificates in the window."));
        var hits = kernel.post("/api/v1/conventions/search", operator, Map.of("query", "rotate certificates")).json()
                .path("hits");
        assertThat(hits.get(0).path("slug").asText()).isEqualTo("cert-rotation");
        List<String> slugs = new ArrayList<>();
        hits.forEach(h -> slugs.add(h.path("slug").asText()));
        assertThat(slugs).as("operational conventions are not searched").doesNotContain("ops-only");
        assertThat(hits.get(0).has("body")).isFalse();
        assertThat(kernel.post("/api/v1/conventions/search", operator, Map.of("query", "DNS TTL", "kind", "workflow"))
                .json().path("hits").toString()).doesNotContain("dns-ttl");
        kernel.patch("/api/v1/conventions/cert-rotation", admin, Map.of("kind", "operational"));
        assertThat(kernel.post("/api/v1/conventions/search", operator, Map.of("query", "rotate certificates")).json()
                .path("hits").toString()).as("turned operational: out of search").doesNotContain("cert-rotation");

        var eval = kernel.post("/api/v1/retrieval/eval", operator, Map.of("surface", "conventions"));
        assertThat(eval.status()).as(eval.body()).isEqualTo(200);
        JsonNode report = eval.json().path("surfaces").get(0);
        assertThat(report.path("surface").asText()).isEqualTo("conventions");
        assertThat(report.path("engine").asText()).isEqualTo("hybrid");
        assertThat(report.path("documents").asInt()).isEqualTo(2);
        assertThat(report.path("curated_queries").asInt()).isEqualTo(1);
        assertThat(report.path("engine_metrics").path("recall_at_10").asDouble()).isEqualTo(1.0);
        assertThat(kernel.jdbc().queryOne("SELECT count(*) FROM retrieval_searches WHERE tenant_id = ? AND surface = "
                + "'conventions'", rs -> rs.getLong(1), tenant).orElseThrow()).as("operator searches are recorded")
                .isEqualTo(3);
    }

    @Test
    void theCliCoversEveryVerbAndEditsInTheEditor() throws Exception {
        Path home = TempDirs.create("svc-conv-cli");
        CliRunner cli = kernel.cli(home, admin);
        Path body = cli.file("body.md", "Say which ticket.\nKeep it short.\n");
        var created = cli.run("conventions", "create", "--slug", "cli-rule", "--title", "Tickets", "--kind",
                "operational", "--priority", "7", "--body", "@" + body);
        assertThat(created.exitCode()).as(created.toString()).isZero();
        assertThat(created.out()).contains("created convention cli-rule");
        assertThat(cli.run(Map.of(), "Piped body.", "conventions", "create", "--slug", "piped", "--title", "P", "--kind",
                "reference", "--body", "@-").exitCode()).isZero();
        assertThat(kernel.get("/api/v1/conventions/piped", operator).json().path("body").asText()).isEqualTo("Piped body.");
        assertThat(cli.run("conventions", "create", "--slug", "x", "--title", "t", "--kind", "nope", "--body", "b")
                .exitCode()).as("bad kind is a usage error").isEqualTo(2);
        assertThat(cli.run("conventions", "create", "--slug", "x", "--title", "t", "--kind", "workflow", "--priority",
                "40000", "--body", "b").exitCode()).isEqualTo(2);

        var list = cli.run("conventions", "list", "--kind", "operational");
        assertThat(list.out()).contains("cli-rule").contains("Tickets").doesNotContain("piped");
        assertThat(cli.run("conventions", "show", "cli-rule").out()).contains("Say which ticket.").contains("priority 7");

        // editor mode: a fake $EDITOR rewrites the temporary file in place
        Path editor = script(home, "edit.sh", "sed -i 's/Keep it short./Keep it very short./' \"$1\"");
        var edited = kernel.cli(home, admin).env("EDITOR", editor.toString()).run("conventions", "edit", "cli-rule");
        assertThat(edited.exitCode()).as(edited.toString()).isZero();
        assertThat(edited.out()).contains("updated convention cli-rule (version 2)");
        assertThat(kernel.get("/api/v1/conventions/cli-rule", operator).json().path("body").asText())
                .isEqualTo("Say which ticket.\nKeep it very short.");

        Path noop = script(home, "noop.sh", "true");
        var unchanged = kernel.cli(home, admin).env("EDITOR", noop.toString()).run("conventions", "edit", "cli-rule");
        assertThat(unchanged.out()).contains("no change");
        Path empty = script(home, "empty.sh", ": > \"$1\"");
        var emptied = kernel.cli(home, admin).env("EDITOR", "/nonexistent-editor").env("VISUAL", empty.toString())
                .run("conventions", "edit", "cli-rule");
        assertThat(emptied.out()).as("VISUAL when EDITOR is unset? no: EDITOR is set, and fails").isEmpty();
        assertThat(emptied.exitCode()).isEqualTo(1);
        var viaVisual = kernel.cli(home, admin).env("VISUAL", empty.toString()).run("conventions", "edit", "cli-rule");
        assertThat(viaVisual.out()).as(viaVisual.toString()).contains("no change: the edited body is empty");
        Path failing = script(home, "fail.sh", "exit 3");
        assertThat(kernel.cli(home, admin).env("EDITOR", failing.toString()).run("conventions", "edit", "cli-rule")
                .exitCode()).isEqualTo(1);
        var titleOnly = kernel.cli(home, admin).env("EDITOR", noop.toString()).run("conventions", "edit", "cli-rule",
                "--title", "Tickets, always");
        assertThat(titleOnly.out()).as("unchanged body, a flag given: the flag is sent").contains("(version 3)");
        assertThat(cli.run("conventions", "edit", "cli-rule", "--body", "Replaced.", "--priority", "8").out())
                .contains("(version 4)");
        assertThat(kernel.get("/api/v1/conventions/cli-rule/history", operator).json().path("versions")).hasSize(4);

        var history = cli.run("conventions", "history", "cli-rule", "--limit", "3");
        assertThat(history.out()).contains("version 4").contains("version 2").doesNotContain("version 1 ")
                .contains("-Keep it short.").contains("+Keep it very short.").contains("title: Tickets -> Tickets, always")
                .contains("priority: 7 -> 8");
        assertThat(cli.run("conventions", "search", "piped").out()).contains("piped");
        assertThat(kernel.cli(home, operator).run("conventions", "edit", "cli-rule", "--body", "x").exitCode())
                .as("an operator's write is denied").isNotZero();
        assertThat(cli.run("conventions", "delete", "cli-rule").exitCode()).as("delete needs --confirm").isEqualTo(2);
        var deleted = cli.run("conventions", "delete", "cli-rule", "--confirm");
        assertThat(deleted.out()).as(deleted.toString()).contains("deleted convention cli-rule");
        assertThat(cli.run("conventions", "show", "cli-rule").exitCode()).isNotZero();
        assertThat(cli.run("conventions", "list", "--json").out()).contains("\"conventions\"");
    }

    private static Path script(Path dir, String name, String line) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, "#!/bin/sh\n" + line + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        return p;
    }
}
