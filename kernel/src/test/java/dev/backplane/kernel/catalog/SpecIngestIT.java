package dev.backplane.kernel.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.KernelTest;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TestKernel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Spec ingest through the running kernel: sync and background ingest, dry run, version compatibility,
 * tenant scope, bad input, catalog mode, {@code connector_not_ingested} on REST and MCP, and the CLI.
 * No spec engine plugin is loaded here (it builds after the kernel): ingested connectors are
 * reviewable and answer calls with a clear error; execution is tested in plugins/generic-openapi.
 */
@KernelTest(settings = "SVC_INGEST_SYNC_MAX_BYTES=8000")
public class SpecIngestIT extends PerTestTenant {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static Path home;
    private final String platformAdmin = issuer.platformAdminToken("platform-" + tenant, tenant);

    @BeforeKernel
    static void catalogIndex(KernelSetup setup) throws Exception {
        home = setup.work();
        Path plugins = setup.plugins();
        Files.writeString(home.resolve("acme.json"), spec("Acme", "2.4.1", 3));
        Files.writeString(plugins.resolve("catalog-index.json"), """
                {"connectors": [
                  {"product": "acme", "version": "2.x", "impl": "acme", "default_port": 8443,
                   "specs": ["../acme.json"], "auth": {"scheme": "static_header", "settings": {"header": "X-Acme-Key", "prefix": ""}},
                   "description": "Acme appliance API"},
                  {"product": "widget", "version": "1.x", "specs": ["../missing.json"]}
                ]}""");
    }

    /** An OpenAPI 3.0 spec with {@code n} resources, each with list (GET), create (POST) and delete (DELETE). */
    public static String spec(String title, String version, int n) {
        ObjectNode root = JSON.createObjectNode();
        root.put("openapi", "3.0.3");
        root.putObject("info").put("title", title).put("version", version);
        root.putArray("servers").addObject().put("url", "https://api.example.com/v2");
        ObjectNode paths = root.putObject("paths");
        for (int i = 0; i < n; i++) {
            String res = "things" + i;
            ObjectNode coll = paths.putObject("/" + res);
            ObjectNode list = coll.putObject("get").put("operationId", "list" + cap(res)).put("summary", "List " + res);
            list.putArray("tags").add("Things " + (i % 2));
            list.putArray("parameters").addObject().put("name", "limit").put("in", "query")
                    .putObject("schema").put("type", "integer");
            list.putObject("responses").putObject("200").put("description", "ok").putObject("content")
                    .putObject("application/json").putObject("schema").put("type", "array").putObject("items")
                    .put("type", "object");
            ObjectNode create = coll.putObject("post").put("operationId", "create" + cap(res));
            create.putArray("tags").add("Things " + (i % 2));
            create.putObject("requestBody").put("required", true).putObject("content").putObject("application/json")
                    .putObject("schema").put("type", "object").putObject("properties").putObject("name")
                    .put("type", "string");
            create.putObject("responses").putObject("201").put("description", "created");
            ObjectNode item = paths.putObject("/" + res + "/{id}");
            ObjectNode del = item.putObject("delete").put("operationId", "delete" + cap(res));
            del.putArray("tags").add("Things " + (i % 2));
            ArrayNode params = del.putArray("parameters");
            params.addObject().put("name", "id").put("in", "path").put("required", true).putObject("schema")
                    .put("type", "string");
            del.putObject("responses").putObject("204").put("description", "gone");
        }
        return root.toPrettyString();
    }

    private static String cap(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private TestKernel.Response ingest(String token, Map<String, Object> body) throws Exception {
        return kernel.send("POST", "/api/v1/connectors/ingest", token, JSON.writeValueAsString(body), Map.of());
    }

    private static Map<String, Object> manual(String impl, String version, String specText) {
        return new java.util.HashMap<>(Map.of("product", impl, "version", version, "impl", impl,
                "specs", java.util.List.of(Map.of("name", impl + ".json", "content", specText))));
    }

    /** A manual ingest of version 2.x into this test's tenant with the specs as uploaded. */
    private Map<String, Object> uploads(String impl, List<Map<String, Object>> specs) {
        return new java.util.HashMap<>(Map.of("product", impl, "version", "2.x", "impl", impl, "specs", specs,
                "tenant_id", tenant.toString()));
    }

    /** An implementation id of this test's own: {@code prefix} and a number from the tenant. */
    private String implOf(String prefix) {
        return prefix + Math.abs(tenant.hashCode() % 10000);
    }

    /** As {@link #manual}, ingested into this test's tenant. */
    private Map<String, Object> tenantManual(String impl, String version, String specText) {
        Map<String, Object> m = manual(impl, version, specText);
        m.put("tenant_id", tenant.toString());
        return m;
    }

    /** The connector as listed, or null; a catalog-index entry not ingested yet is not a connector. */
    private JsonNode connector(String token, String id) {
        for (JsonNode c : kernel.get("/api/v1/connectors", token).json()) {
            if (c.path("connector_id").asText().equals(id) && !c.path("status").asText().equals("not_ingested")) {
                return c;
            }
        }
        return null;
    }

    @Test
    void aSmallSpecIsIngestedWithinTheRequestStagedAndDefaultDeny() throws Exception {
        String impl = implOf("shop");
        var dry = ingest(admin, Map.of("product", impl, "version", "2.x", "specs",
                java.util.List.of(Map.of("name", "s.json", "content", spec("Shop", "2.0", 2))), "dry_run", true,
                "tenant_id", tenant.toString()));
        assertThat(dry.status()).as(dry.body()).isEqualTo(200);
        assertThat(dry.json().path("dry_run").asBoolean()).isTrue();
        assertThat(dry.json().path("operation_count").asInt()).isEqualTo(6);
        assertThat(connector(admin, impl + "-2.x")).as("a dry run writes nothing").isNull();

        var m = tenantManual(impl, "2.x", spec("Shop", "2.0", 2));
        var r = ingest(admin, m);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        JsonNode res = r.json();
        assertThat(res.path("connector_id").asText()).isEqualTo(impl + "-2.x");
        assertThat(res.path("created").asBoolean()).isTrue();
        assertThat(res.path("status").asText()).isEqualTo("staged");
        assertThat(res.path("scope").asText()).isEqualTo("tenant");
        assertThat(res.path("base_path").asText()).isEqualTo("/v2");
        assertThat(res.path("group_count").asInt()).isEqualTo(2);
        assertThat(res.path("safety_counts").path("dangerous").asInt()).isEqualTo(2);

        JsonNode listed = connector(operator, impl + "-2.x");
        assertThat(listed.path("status").asText()).isEqualTo("staged");
        assertThat(listed.path("source").asText()).isEqualTo("ingested");
        assertThat(listed.path("enabled_op_count").asInt()).isZero();
        assertThat(listed.path("reason").asText()).contains("spec engine 'openapi'");
        String other = issuer.token("someone-else", UUID.randomUUID(), "tenant_admin");
        assertThat(connector(other, impl + "-2.x")).as("a tenant's own connector is invisible to others").isNull();

        var review = kernel.get("/api/v1/connectors/" + impl + "-2.x", operator).json();
        assertThat(review.path("operations").size()).isEqualTo(6);
        review.path("operations").forEach(op -> assertThat(op.path("is_enabled").asBoolean()).isFalse());
        var reads = kernel.send("POST", "/api/v1/connectors/" + impl + "-2.x/enable-reads", admin, null, Map.of());
        assertThat(reads.json().path("operations_changed").asInt()).as(reads.body()).isEqualTo(2);
        var hits = kernel.get("/api/v1/connectors/" + impl + "-2.x/operations?query=list%20things1", operator).json();
        assertThat(hits.path("hits").get(0).path("op_id").asText()).isEqualTo(impl + ".things_1.list_things1");

        var again = ingest(admin, m);
        assertThat(again.json().path("created").asBoolean()).as("re-ingest replaces in place").isFalse();
        assertThat(connector(operator, impl + "-2.x").path("enabled_op_count").asInt())
                .as("review overrides survive a re-ingest").isEqualTo(2);
    }

    @Test
    void aBigSpecIsIngestedInABackgroundJob() throws Exception {
        String impl = implOf("big");
        var m = tenantManual(impl, "3.x", spec("Big", "3.1", 40));
        var r = ingest(admin, m);
        assertThat(r.status()).as(r.body()).isEqualTo(202);
        String jobId = r.json().path("job_id").asText();
        assertThat(r.header("Location")).contains("/api/v1/connectors/ingest-jobs/" + jobId);
        JsonNode job = null;
        Instant until = Instant.now().plus(Duration.ofSeconds(60));
        while (Instant.now().isBefore(until)) {
            job = kernel.get("/api/v1/connectors/ingest-jobs/" + jobId, admin).json();
            if (job.path("terminal").asBoolean()) {
                break;
            }
            Thread.sleep(200);
        }
        assertThat(job.path("status").asText()).as(job.toString()).isEqualTo("succeeded");
        assertThat(job.path("result").path("operation_count").asInt()).isEqualTo(120);
        assertThat(connector(operator, impl + "-3.x").path("operation_count").asInt()).isEqualTo(120);
        String stranger = issuer.token("stranger", UUID.randomUUID(), "tenant_admin");
        assertThat(kernel.get("/api/v1/connectors/ingest-jobs/" + jobId, stranger).status()).isEqualTo(404);
        assertThat(kernel.get("/api/v1/connectors/ingest-jobs/nope", admin).status()).isEqualTo(422);
    }

    @Test
    void theSpecMajorMustMatchTheLabelUnlessCompatibilityIsDeclared() throws Exception {
        String impl = implOf("vers");
        var m = tenantManual(impl, "5.x", spec("Vers", "1.2.0", 1));
        var rejected = ingest(admin, m);
        assertThat(rejected.status()).as(rejected.body()).isEqualTo(422);
        assertThat(rejected.json().path("error").asText()).isEqualTo("spec_version_mismatch");
        assertThat(rejected.json().path("message").asText()).contains("--spec-info-versions-compatible");
        assertThat(connector(admin, impl + "-5.x")).isNull();
        m.put("spec_info_versions_compatible", java.util.List.of(">=1.0,<2"));
        assertThat(ingest(admin, m).status()).isEqualTo(200);
        m.put("spec_info_versions_compatible", java.util.List.of("3.x"));
        assertThat(ingest(admin, m).status()).as("a declaration that does not match still rejects").isEqualTo(422);
    }

    @Test
    void badRequestsGetClearErrorsAndWriteNothing() throws Exception {
        String spec = spec("X", "1.0", 1);
        var other = manual("xa", "1.x", spec);
        other.put("tenant_id", UUID.randomUUID().toString());
        var forbidden = ingest(admin, other);
        assertThat(forbidden.status()).isEqualTo(403);
        assertThat(forbidden.json().path("error").asText()).isEqualTo("tenant_forbidden");
        assertThat(ingest(operator, manual("xb", "1.x", spec)).status()).as("operators cannot ingest").isEqualTo(403);
        String admin = platformAdmin; // the rest are global ingests

        var noScheme = manual("xc", "1.x", spec);
        noScheme.put("auth_secret_fields", java.util.List.of("token"));
        assertThat(ingest(admin, noScheme).json().path("error").asText()).isEqualTo("auth_secret_field_without_scheme");
        var badScheme = manual("xd", "1.x", spec);
        badScheme.put("auth_scheme", "kerberos");
        assertThat(ingest(admin, badScheme).json().path("error").asText()).isEqualTo("invalid_auth_scheme");
        var both = manual("xe", "1.x", spec);
        both.put("catalog", "acme/2.x");
        assertThat(ingest(admin, both).json().path("error").asText()).isEqualTo("invalid_ingest_mode");
        var garbage = ingest(admin, manual("xf", "1.x", "this is not a spec"));
        assertThat(garbage.status()).as(garbage.body()).isEqualTo(422);
        assertThat(garbage.json().path("error").asText()).isEqualTo("spec_invalid");
        assertThat(ingest(admin, manual("Bad Impl", "1.x", spec)).status()).isEqualTo(422);
        assertThat(ingest(admin, Map.of("catalog", "nope/1.x")).json().path("error").asText())
                .isEqualTo("unknown_catalog_entry");
        assertThat(ingest(admin, Map.of("catalog", "widget/1.x")).json().path("error").asText())
                .isEqualTo("spec_unreadable");
        var notJson = kernel.send("POST", "/api/v1/connectors/ingest", admin, "{", Map.of());
        assertThat(notJson.status()).isEqualTo(400);
        for (String id : new String[] {"xa-1.x", "xb-1.x", "xc-1.x", "xd-1.x", "xe-1.x", "xf-1.x"}) {
            assertThat(connector(admin, id)).as(id).isNull();
        }
    }

    @Test
    void aConnectorOfTheCatalogIndexNotYetIngestedSaysHowToIngestIt() throws Exception {
        // a fresh kernel's global state is shared by the tests: check before and after in one test
        String body = JSON.writeValueAsString(Map.of("connector_id", "acme-2.x", "op_id", "acme.things_0.list_things0",
                "target", "anything", "params", Map.of()));
        var call = kernel.send("POST", "/api/v1/operations/call", operator, body, Map.of());
        assertThat(call.status()).as(call.body()).isEqualTo(404);
        assertThat(call.json().path("error").asText()).isEqualTo("connector_not_ingested");
        assertThat(call.json().path("extras").path("next_step").path("verb").asText())
                .isEqualTo("svc connector ingest --catalog acme/2.x");

        String mcp = issuer.mcpToken("agent-" + tenant, tenant, "operator");
        String rpc = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"search_operations\","
                + "\"arguments\":{\"connector_id\":\"acme-2.x\",\"query\":\"things\"},\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        var answer = kernel.send("POST", "/mcp", mcp, rpc, Map.of("MCP-Protocol-Version", "2026-07-28",
                "Mcp-Method", "tools/call", "Mcp-Name", "search_operations", "Accept", "application/json, text/event-stream"));
        JsonNode error = JSON.readTree(answer.body()).path("error");
        assertThat(error.path("code").asInt()).as(answer.body()).isEqualTo(-32602);
        assertThat(error.path("data").path("reason").asText()).isEqualTo("connector_not_ingested");
        assertThat(error.path("data").path("next_step").path("verb").asText()).contains("--catalog acme/2.x");

        var listed = kernel.get("/api/v1/connectors?status=not_ingested", operator);
        assertThat(listed.status()).as(listed.body()).isEqualTo(200);
        JsonNode offered = null;
        for (JsonNode c : listed.json()) {
            assertThat(c.path("status").asText()).isEqualTo("not_ingested");
            offered = c.path("connector_id").asText().equals("acme-2.x") ? c : offered;
        }
        assertThat(offered).as("the index entry is listed before anyone ingests it: " + listed.body()).isNotNull();
        assertThat(offered.path("source").asText()).isEqualTo("catalog");
        assertThat(offered.path("products").toString()).contains("acme");
        assertThat(offered.path("reason").asText()).contains("svc connector ingest --catalog acme/2.x");
        var cliList = kernel.cli(operator).run("connector", "list", "--status", "not_ingested");
        assertThat(cliList.exitCode()).as(cliList.toString()).isZero();
        assertThat(cliList.out()).contains("acme-2.x").contains("not_ingested").contains("--catalog acme/2.x");
        assertThat(kernel.get("/api/v1/connectors?status=staged", operator).body()).doesNotContain("not_ingested");

        var refused = ingest(admin, Map.of("catalog", "acme/2.x"));
        assertThat(refused.status()).as("a global ingest needs platform_admin").isEqualTo(403);
        assertThat(refused.json().path("error").asText()).isEqualTo("insufficient_role");
        assertThat(refused.json().path("extras").path("required_role").asText()).isEqualTo("platform_admin");
        var ingested = ingest(platformAdmin, Map.of("catalog", "acme/2.x"));
        assertThat(ingested.status()).as(ingested.body()).isEqualTo(200);
        assertThat(ingested.json().path("scope").asText()).isEqualTo("global");
        assertThat(ingested.json().path("auth").path("scheme").asText()).isEqualTo("static_header");
        assertThat(ingested.json().path("auth").path("secret_fields").toString()).contains("token");
        var now = kernel.send("POST", "/api/v1/operations/call", operator, body, Map.of());
        // the connector and its operation now resolve; the call fails at the next step, the made-up target
        assertThat(now.status()).as(now.body()).isEqualTo(404);
        assertThat(now.json().path("error").asText()).as(now.body()).isEqualTo("target_not_found");
        assertThat(connector(issuer.token("any", UUID.randomUUID(), "operator"), "acme-2.x"))
                .as("a global connector is visible to every tenant, staged for each").isNotNull();
        assertThat(kernel.get("/api/v1/connectors?status=not_ingested", operator).body())
                .as("ingested: no longer offered").doesNotContain("acme-2.x");
    }

    @Test
    void theCliIngestsShowsDryRunsAndRefusesBadFlags() throws Exception {
        CliRunner cli = kernel.cli(admin);
        Path file = cli.file("tools.json", spec("Tools", "4.0.0", 3));
        String impl = implOf("tools");
        var dry = cli.run("connector", "ingest", "--product", impl, "--version", "4.x", "--impl", impl, "--spec",
                file.toString(), "--auth-scheme", "static_header", "--auth-secret-field", "token", "--auth-setting",
                "header=X-Api-Key", "--auth-setting", "prefix=Key ", "--dry-run", "--tenant-id", tenant.toString());
        assertThat(dry.exitCode()).as(dry.toString()).isZero();
        assertThat(dry.out()).contains("dry run: would create " + impl + "-4.x").contains("9 operations in 2 groups")
                .contains("nothing was written")
                // the auth settings a target will be called with, before anything is written (issue 44, I8)
                .contains("auth static_header [\"token\"]").contains("header=X-Api-Key").contains("prefix=Key ");
        var dryJson = cli.run("connector", "ingest", "--product", impl, "--version", "4.x", "--impl", impl, "--spec",
                file.toString(), "--auth-scheme", "static_header", "--auth-secret-field", "token", "--auth-setting",
                "header=X-Api-Key", "--dry-run", "--tenant-id", tenant.toString(), "--json");
        assertThat(dryJson.exitCode()).as(dryJson.toString()).isZero();
        assertThat(JSON.readTree(dryJson.out()).path("auth").path("settings").path("header").asText())
                .isEqualTo("X-Api-Key");
        var done = cli.run("connector", "ingest", "--product", impl, "--version", "4.x", "--impl", impl, "--spec",
                file.toString(), "--auth-scheme", "basic", "--auth-secret-field", "user", "--auth-secret-field", "pass",
                "--tenant-id", tenant.toString());
        assertThat(done.exitCode()).as(done.toString()).isZero();
        assertThat(done.out()).contains("ingested " + impl + "-4.x (tenant)").contains("auth basic [\"user\",\"pass\"]")
                .contains("next: svc connector review " + impl + "-4.x");
        // the base path can be set where the spec's is wrong (a templated or a proxied one)
        var based = cli.run("connector", "ingest", "--product", impl, "--version", "4.x", "--impl", impl, "--spec",
                file.toString(), "--base-path", "/proxied/v2", "--dry-run", "--tenant-id", tenant.toString(), "--json");
        assertThat(based.exitCode()).as(based.toString()).isZero();
        assertThat(JSON.readTree(based.out()).path("base_path").asText()).isEqualTo("/proxied/v2");
        assertThat(JSON.readTree(based.out()).path("warnings").toString())
                .contains("base path /proxied/v2 as given, not the spec's /v2");
        var badBase = cli.run("connector", "ingest", "--product", impl, "--version", "4.x", "--impl", impl, "--spec",
                file.toString(), "--base-path", "v2/{x}", "--dry-run", "--tenant-id", tenant.toString());
        assertThat(badBase.exitCode()).as(badBase.toString()).isNotZero();
        assertThat(badBase.err()).contains("base_path must be an absolute path");
        // the review shows how a target will be called: the scheme, its settings, the base path
        var review = cli.run("connector", "review", impl + "-4.x");
        assertThat(review.exitCode()).as(review.toString()).isZero();
        assertThat(review.out()).contains("secret fields user,pass").contains("auth basic  base path /v2");
        assertThat(cli.run("connector", "list").out()).contains(impl + "-4.x");

        var usage = cli.run("connector", "ingest", "--product", impl, "--version", "4.x", "--spec", file.toString(),
                "--auth-secret-field", "x");
        assertThat(usage.exitCode()).isEqualTo(2);
        assertThat(usage.err()).contains("--auth-secret-field needs --auth-scheme");
        var mismatch = cli.run("connector", "ingest", "--product", impl, "--version", "9.x", "--impl", impl, "--spec",
                file.toString(), "--tenant-id", tenant.toString());
        assertThat(mismatch.exitCode()).isEqualTo(1);
        assertThat(mismatch.err()).contains("spec_version_mismatch").contains("--spec-info-versions-compatible");
        assertThat(cli.run("connector", "ingest-status", "not-a-uuid").exitCode()).isEqualTo(2);

        Path big = cli.file("big.json", spec("Big tools", "4.1.0", 30));
        var started = cli.run("connector", "ingest", "--product", impl, "--version", "4.x", "--impl", impl + "-big",
                "--spec", big.toString(), "--tenant-id", tenant.toString(), "--no-wait");
        assertThat(started.exitCode()).as(started.toString()).isZero();
        var jobId = java.util.regex.Pattern.compile("ingest job ([0-9a-f-]{36}) started").matcher(started.out());
        assertThat(jobId.find()).as(started.out()).isTrue();
        var waited = cli.run("connector", "ingest-status", jobId.group(1), "--wait");
        assertThat(waited.exitCode()).as(waited.toString()).isZero();
        assertThat(waited.out()).contains("succeeded").contains("ingested " + impl + "-big-4.x (tenant): 90 operations");
        var waitedInline = cli.run("connector", "ingest", "--product", impl, "--version", "4.x", "--impl", impl + "-big",
                "--spec", big.toString(), "--tenant-id", tenant.toString());
        assertThat(waitedInline.exitCode()).as(waitedInline.toString()).isZero();
        assertThat(waitedInline.err()).contains("ingesting in the background as job");
        assertThat(waitedInline.out()).contains("re-ingested " + impl + "-big-4.x");
    }

    /**
     * Issue 44 I4: a multi-file spec through the CLI and REST — its directory, its root file (the CLI sends the
     * directory beside it), a zip of it — one catalog each way; a ref out of the files and a malformed upload are
     * clear errors that write nothing.
     */
    @Test
    void aMultiFileSpecFromItsDirectoryItsRootFileAnArchiveAndRest() throws Exception {
        CliRunner cli = kernel.cli(admin);
        Map<String, String> files = Map.of(
                "openapi.yaml", """
                        openapi: 3.0.3
                        info: {title: Split, version: 2.0.0}
                        servers: [{url: /api}]
                        paths:
                          /widgets: {$ref: 'paths/widgets.yaml'}
                        """,
                "paths/widgets.yaml", """
                        get:
                          operationId: listWidgets
                          tags: [widgets]
                          responses: {'200': {description: ok, content: {application/json: {schema: {type: array,
                            items: {$ref: '../schemas/widget.yaml'}}}}}}
                        post:
                          operationId: createWidget
                          tags: [widgets]
                          requestBody: {content: {application/json: {schema: {$ref: '../schemas/widget.yaml'}}}}
                          responses: {'201': {description: created}}
                        """,
                "schemas/widget.yaml", "type: object\nproperties:\n  colour: {type: string}\n");
        Path dir = cli.file("split.marker", "").resolveSibling("split");
        for (Map.Entry<String, String> f : files.entrySet()) {
            Files.createDirectories(dir.resolve(f.getKey()).getParent());
            Files.writeString(dir.resolve(f.getKey()), f.getValue());
        }
        Path zip = dir.resolveSibling("split.zip");
        try (var out = new java.util.zip.ZipOutputStream(Files.newOutputStream(zip))) {
            for (Map.Entry<String, String> f : files.entrySet()) {
                out.putNextEntry(new java.util.zip.ZipEntry("split/" + f.getKey()));
                out.write(f.getValue().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
        String impl = implOf("split");
        for (Path spec : List.of(dir, dir.resolve("openapi.yaml"), zip)) {
            var r = cli.run("connector", "ingest", "--product", impl, "--version", "2.x", "--impl", impl, "--spec",
                    spec.toString(), "--tenant-id", tenant.toString(), "--dry-run", "--json");
            assertThat(r.exitCode()).as(spec + ": " + r).isZero();
            JsonNode answer = JSON.readTree(r.out());
            assertThat(answer.path("operation_count").asInt()).as(spec.toString()).isEqualTo(2);
            assertThat(answer.path("base_path").asText()).isEqualTo("/api");
            assertThat(answer.path("specs").get(0).path("bytes").asLong()).as("all three files")
                    .isGreaterThan(files.get("openapi.yaml").length() + 100L);
        }
        var done = cli.run("connector", "ingest", "--product", impl, "--version", "2.x", "--impl", impl, "--spec",
                dir.toString(), "--tenant-id", tenant.toString());
        assertThat(done.exitCode()).as(done.toString()).isZero();
        var create = kernel.get("/api/v1/connectors/" + impl + "-2.x", admin).json().path("operations");
        assertThat(create.toString()).contains(impl + ".widgets.create_widget");

        // REST: files with a ref out of them, both content and files, a path that climbs out: 422, nothing written
        String other = implOf("splitbad");
        Map<String, Object> outside = Map.of("name", "bad", "files", List.of(
                Map.of("path", "openapi.yaml", "content", files.get("openapi.yaml")),
                Map.of("path", "paths/widgets.yaml", "content", "get: {$ref: '../../etc/x.yaml'}\n")));
        var refused = ingest(admin, uploads(other, List.of(outside)));
        assertThat(refused.status()).as(refused.body()).isEqualTo(422);
        assertThat(refused.json().path("message").asText()).contains("$ref '../../etc/x.yaml' in paths/widgets.yaml "
                + "points outside the spec's files");
        var both = ingest(admin, uploads(other, List.of(Map.of("name", "b", "content", "x", "files", List.of()))));
        assertThat(both.status()).as(both.body()).isEqualTo(422);
        assertThat(both.json().path("message").asText()).contains("exactly one of content");
        var climb = ingest(admin, uploads(other, List.of(Map.of("name", "c", "files", List.of(
                Map.of("path", "../openapi.yaml", "content", files.get("openapi.yaml")))))));
        assertThat(climb.status()).as(climb.body()).isEqualTo(422);
        assertThat(climb.json().path("message").asText()).contains("outside its own directory");
        var notBase64 = ingest(admin, uploads(other, List.of(Map.of("name", "d.zip", "archive_base64", "%%%"))));
        assertThat(notBase64.status()).as(notBase64.body()).isEqualTo(422);
        assertThat(kernel.get("/api/v1/connectors/" + other + "-2.x", admin).status()).isEqualTo(404);
    }

    /** D2: a global connector is platform_admin's; a tenant_admin's global ingest writes nothing. */
    @Test
    void aTenantAdminCannotWriteAGlobalConnector() throws Exception {
        String impl = implOf("hijack");
        var r = ingest(admin, manual(impl, "1.x", spec("Hijack", "1.0", 1)));
        assertThat(r.status()).as(r.body()).isEqualTo(403);
        assertThat(r.json().path("error").asText()).isEqualTo("insufficient_role");
        assertThat(r.json().path("message").asText()).contains("--tenant-id " + tenant);
        String other = issuer.token("bystander", UUID.randomUUID(), "operator");
        assertThat(connector(other, impl + "-1.x")).as("nothing was written").isNull();
        assertThat(connector(operator, impl + "-1.x")).isNull();
    }

    /**
     * D2: when a connector's revision changes, every tenant's review of it goes back to staged (its
     * per-operation overrides are kept); an unchanged re-ingest leaves reviews alone.
     */
    @Test
    void aChangedRevisionSendsEveryTenantsReviewBackToStaged() throws Exception {
        String impl = implOf("rev");
        String id = impl + "-1.x";
        var first = ingest(platformAdmin, manual(impl, "1.x", spec("Rev", "1.0", 1)));
        assertThat(first.status()).as(first.body()).isEqualTo(200);
        UUID otherTenant = UUID.randomUUID();
        String otherAdmin = issuer.token("admin-" + otherTenant, otherTenant, "tenant_admin");
        for (String a : java.util.List.of(admin, otherAdmin)) {
            assertThat(kernel.send("POST", "/api/v1/connectors/" + id + "/enable-reads", a, null, Map.of()).status())
                    .isEqualTo(200);
            assertThat(kernel.send("POST", "/api/v1/connectors/" + id + "/enable", a, null, Map.of()).status())
                    .isEqualTo(200);
            assertThat(connector(a, id).path("status").asText()).isEqualTo("enabled");
        }
        var same = ingest(platformAdmin, manual(impl, "1.x", spec("Rev", "1.0", 1)));
        assertThat(same.json().path("reviews_reset").asInt()).as(same.body()).isZero();
        assertThat(connector(admin, id).path("status").asText()).as("same revision: review kept").isEqualTo("enabled");

        var changed = ingest(platformAdmin, manual(impl, "1.x", spec("Rev", "1.1", 2)));
        assertThat(changed.status()).as(changed.body()).isEqualTo(200);
        assertThat(changed.json().path("reviews_reset").asInt()).as(changed.body()).isEqualTo(2);
        for (String a : java.util.List.of(admin, otherAdmin)) {
            JsonNode c = connector(a, id);
            assertThat(c.path("status").asText()).as("a new revision is reviewed again").isEqualTo("staged");
            assertThat(c.path("enabled_op_count").asInt()).as("overrides are kept").isEqualTo(1);
        }
        var call = kernel.send("POST", "/api/v1/operations/call", operator, JSON.writeValueAsString(Map.of(
                "connector_id", id, "op_id", impl + ".things_0.list_things0", "target", "nowhere", "params", Map.of())),
                Map.of());
        assertThat(call.body()).as("nothing of the new revision is dispatchable").doesNotContain("\"status\":\"ok\"");
    }

    /**
     * D1: a probe goes through plugin connectors and ingested connectors this tenant enabled — never
     * through a staged ingest, which would be handed the target's credential.
     */
    @Test
    void aProbeNeverGoesThroughAConnectorTheTenantDidNotEnable() throws Exception {
        String impl = implOf("probe");
        String product = impl + "-product";
        var body = manual(impl, "1.x", spec("Probe", "1.0", 1));
        body.put("product", product);
        assertThat(ingest(platformAdmin, body).status()).isEqualTo(200);
        var t = kernel.send("POST", "/api/v1/targets", admin, JSON.writeValueAsString(Map.of("name", impl + "-t",
                "product", product, "host", "127.0.0.1", "port", 9)), Map.of());
        assertThat(t.status()).as(t.body()).isEqualTo(201);
        assertThat(kernel.send("PUT", "/api/v1/targets/" + impl + "-t/secret", admin, "{\"fields\":{\"token\":\"t-1\"}}",
                Map.of()).status()).isEqualTo(200);
        var staged = kernel.send("POST", "/api/v1/targets/" + impl + "-t/probe", admin, null, Map.of());
        assertThat(staged.status()).as(staged.body()).isEqualTo(501);
        assertThat(staged.json().path("error").asText()).isEqualTo("no_connector");
        assertThat(staged.json().path("message").asText()).contains("ingested connectors this tenant enabled");

        assertThat(kernel.send("POST", "/api/v1/connectors/" + impl + "-1.x/enable", admin, null, Map.of()).status())
                .isEqualTo(200);
        var enabled = kernel.send("POST", "/api/v1/targets/" + impl + "-t/probe", admin, null, Map.of());
        assertThat(enabled.status()).as(enabled.body()).isEqualTo(200);
        assertThat(enabled.json().path("fingerprint").path("connector_id").asText()).isEqualTo(impl + "-1.x");
        UUID otherTenant = UUID.randomUUID();
        String otherAdmin = issuer.token("admin-" + otherTenant, otherTenant, "tenant_admin");
        assertThat(kernel.send("POST", "/api/v1/targets", otherAdmin, JSON.writeValueAsString(Map.of("name", "t",
                "product", product, "host", "127.0.0.1", "port", 9)), Map.of()).status()).isEqualTo(201);
        assertThat(kernel.send("POST", "/api/v1/targets/t/probe", otherAdmin, null, Map.of()).status())
                .as("another tenant's enable does not count").isEqualTo(501);
    }
}
