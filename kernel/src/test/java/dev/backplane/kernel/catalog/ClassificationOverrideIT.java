package dev.backplane.kernel.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TestKernel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 44 I2, the admin's side: an operation's class corrected per operation ({@code edit-op --op-class}) and at
 * ingest with a rules file ({@code ingest --rules}), through the real kernel and CLI. A credential read that no
 * heuristic can see (Nomad's {@code GetVariableQuery} returns a variable's items, which are secrets) is marked by a
 * rules file: it parks for approval and {@code enable-reads} leaves it off; an override to {@code read} of a POST
 * never lets {@code enable-reads} open it; bad values answer {@code invalid_override} and a bad rules file writes
 * nothing; every applied rule and every override is in the audit log; an admin's override beats the rules file.
 */
public class ClassificationOverrideIT extends PerTestTenant {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path NOMAD = Path.of(System.getProperty("svc.shared.dir", "../../shared"))
            .resolve("specs/nomad-openapi.yaml");

    private String implOf(String prefix) {
        return prefix + Math.abs(tenant.hashCode() % 10000);
    }

    private TestKernel.Response ingest(Map<String, Object> body) throws Exception {
        return kernel.send("POST", "/api/v1/connectors/ingest", admin, JSON.writeValueAsString(body), Map.of());
    }

    private Map<String, Object> manual(String impl, String version, String name, String specText) {
        Map<String, Object> m = new HashMap<>(Map.of("product", impl, "version", version, "impl", impl,
                "specs", List.of(Map.of("name", name, "content", specText)), "tenant_id", tenant.toString()));
        return m;
    }

    private JsonNode review(String id) {
        var r = kernel.get("/api/v1/connectors/" + id, admin);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    private static JsonNode op(JsonNode review, String opId) {
        for (JsonNode op : review.path("operations")) {
            if (op.path("op_id").asText().equals(opId)) {
                return op;
            }
        }
        throw new AssertionError("no " + opId + " in the review");
    }

    private TestKernel.Response patch(String id, String opId, String body) {
        return kernel.send("PATCH", "/api/v1/connectors/" + id + "/operations/" + opId, admin, body, Map.of());
    }

    private long auditRows(String opId, String connectorId) {
        return kernel.jdbc().queryOne("SELECT count(*) FROM audit_rows WHERE tenant_id = ? AND op_id = ? "
                + "AND connector_id = ?", rs -> rs.getLong(1), tenant, opId, connectorId).orElseThrow();
    }

    @Test
    void aRulesFileMarksACredentialReadNoHeuristicSeesItParksAndEnableReadsLeavesItOff() throws Exception {
        assumeTrue(Files.isRegularFile(NOMAD), "shared Nomad spec not found at " + NOMAD.toAbsolutePath());
        String impl = implOf("nomadr");
        String id = impl + "-1.x";
        CliRunner cli = kernel.cli(admin);
        // the heuristic alone: GetVariableQuery is an ordinary read, which enable-reads would open
        String plainImpl = impl + "p";
        var plain = cli.run("connector", "ingest", "--product", plainImpl, "--impl", plainImpl, "--version", "1.x",
                "--spec", NOMAD.toString(), "--tenant-id", tenant.toString(), "-o", "json");
        assertThat(plain.exitCode()).as(plain.toString()).isZero();
        JsonNode heuristic = op(review(plainImpl + "-1.x"), plainImpl + ".variables.get_variable_query");
        assertThat(heuristic.path("op_class").asText()).as("no heuristic sees it").isEqualTo("read");
        assertThat(heuristic.path("read_class").asBoolean()).isTrue();
        Path rules = cli.file("rules.yaml", """
                rules:
                  - match: {operation_id: GetVariableQuery}
                    op_class: credential_read
                    reason: returns the variable's items, which are secrets (Nomad Variables)
                  - match: {method: GET, path: /acl/token/**}
                    op_class: credential_read
                    reason: ACL tokens carry their secret id
                """);
        var done = cli.run("connector", "ingest", "--product", impl, "--impl", impl, "--version", "1.x", "--spec",
                NOMAD.toString(), "--tenant-id", tenant.toString(), "--rules", rules.toString());
        assertThat(done.exitCode()).as(done.toString()).isZero();
        assertThat(done.out()).contains("rule 1 set {\"op_class\":\"credential_read\"} on 1 operation(s)")
                .contains("returns the variable's items");

        JsonNode r = review(id);
        String varQuery = null;
        List<String> tokenReads = new ArrayList<>();
        for (JsonNode op : r.path("operations")) {
            String opId = op.path("op_id").asText();
            if (opId.endsWith(".get_variable_query")) {
                varQuery = opId;
            }
            if (op.path("method").asText().equals("GET") && op.path("path_template").asText().contains("/acl/token/")) {
                tokenReads.add(opId);
            }
        }
        assertThat(varQuery).as(r.toString()).isNotNull();
        String varQueryId = varQuery;
        assertThat(JSON.readTree(plain.out()).path("classification_rules")).as("no rules, none applied").isEmpty();
        JsonNode v = op(r, varQuery);
        assertThat(v.path("op_class").asText()).isEqualTo("credential_read");
        assertThat(v.path("requires_approval").asBoolean()).as("a credential read always parks").isTrue();
        assertThat(v.path("read_class").asBoolean()).isFalse();
        assertThat(v.path("op_class_overridden").asBoolean()).as("the rules file, not an admin's edit-op").isFalse();
        assertThat(r.path("classification_rules")).hasSize(2);
        assertThat(r.path("classification_rules").get(0).path("op_ids").toString()).contains(varQuery);
        assertThat(r.path("classification_rules").get(0).path("reason").asText()).contains("which are secrets");
        assertThat(tokenReads).isNotEmpty();
        assertThat(r.path("classification_rules").get(1).path("op_ids")).hasSize(tokenReads.size());

        var text = cli.run("connector", "review", id);
        assertThat(text.exitCode()).as(text.toString()).isZero();
        assertThat(text.out()).contains("CLASS").contains("Classification rules applied at ingest")
                .contains("which are secrets");
        assertThat(text.out().lines().filter(l -> l.contains(varQueryId + " ")).findFirst().orElseThrow())
                .contains("credential_read").contains("approval");

        var reads = cli.run("connector", "enable-reads", id, "--confirm");
        assertThat(reads.exitCode()).as(reads.toString()).isZero();
        JsonNode after = review(id);
        assertThat(op(after, varQuery).path("is_enabled").asBoolean()).as("enable-reads leaves it off").isFalse();
        for (String t : tokenReads) {
            assertThat(op(after, t).path("is_enabled").asBoolean()).as(t).isFalse();
        }
        assertThat(after.path("connector").path("enabled_op_count").asInt()).as("other reads are opened").isPositive();

        assertThat(auditRows(IngestRun.RULE_AUDIT_OP, id)).as("one audit row per applied rule").isEqualTo(2);
        String row = kernel.jdbc().queryOne("SELECT principal || ' ' || extras::text FROM audit_rows WHERE tenant_id = ? "
                + "AND op_id = ? AND connector_id = ? AND extras->>'rule' = '1'", rs -> rs.getString(1), tenant,
                IngestRun.RULE_AUDIT_OP, id).orElseThrow();
        assertThat(row).contains("which are secrets").contains(varQuery).contains("credential_read");

        // enabled by hand, the call parks for approval, and its audit row says credential_read
        assertThat(cli.run("connector", "enable", id, "--confirm").exitCode()).isZero();
        assertThat(cli.run("connector", "edit-op", id, varQuery, "--enable").exitCode()).isZero();
        var t = kernel.send("POST", "/api/v1/targets", admin, JSON.writeValueAsString(Map.of("name", impl + "-t",
                "product", impl, "host", "127.0.0.1", "port", 9)), Map.of());
        assertThat(t.status()).as(t.body()).isEqualTo(201);
        var call = kernel.send("POST", "/api/v1/operations/call", operator, JSON.writeValueAsString(Map.of(
                "connector_id", id, "op_id", varQuery, "target", impl + "-t", "params", Map.of("path", "app/db"))),
                Map.of());
        assertThat(call.body()).as(call.body()).contains("\"status\":\"awaiting_approval\"");
        assertThat(kernel.jdbc().queryOne("SELECT op_class FROM audit_rows WHERE tenant_id = ? AND op_id = ?",
                rs -> rs.getString(1), tenant, varQuery).orElseThrow()).isEqualTo("credential_read");
    }

    @Test
    void anOverrideToReadOfAPostNeverLetsEnableReadsOpenItAndAnAdminOverrideBeatsTheRulesFile() throws Exception {
        String impl = implOf("ovr");
        String id = impl + "-1.x";
        var ingested = ingest(manual(impl, "1.x", "s.json", SpecIngestIT.spec("Ovr", "1.0", 2)));
        assertThat(ingested.status()).as(ingested.body()).isEqualTo(200);
        String create = impl + ".things_0.create_things0";
        String list = impl + ".things_0.list_things0";
        String list1 = impl + ".things_1.list_things1";
        CliRunner cli = kernel.cli(admin);

        var toRead = cli.run("connector", "edit-op", id, create, "--op-class", "read");
        assertThat(toRead.exitCode()).as(toRead.toString()).isZero();
        assertThat(toRead.out()).contains("[class read*, a POST: enable-reads leaves it off]");
        JsonNode c = op(review(id), create);
        assertThat(c.path("op_class").asText()).isEqualTo("read");
        assertThat(c.path("op_class_overridden").asBoolean()).isTrue();
        assertThat(c.path("read_class").asBoolean()).as("a POST is never read-class").isFalse();
        assertThat(c.path("requires_approval").asBoolean()).as("its approval is unchanged").isTrue();

        // a GET marked credential_read by an admin leaves enable-reads too, and always requires approval
        var toCred = patch(id, list, "{\"op_class\": \"credential_read\"}");
        assertThat(toCred.status()).as(toCred.body()).isEqualTo(200);
        assertThat(toCred.json().path("requires_approval").asBoolean()).isTrue();
        var lift = patch(id, list, "{\"requires_approval\": false}");
        assertThat(lift.status()).as(lift.body()).isEqualTo(422);
        assertThat(lift.json().path("error").asText()).isEqualTo("invalid_override");
        assertThat(lift.json().path("message").asText()).contains("always requires approval");

        var reads = kernel.send("POST", "/api/v1/connectors/" + id + "/enable-reads", admin, null, Map.of());
        assertThat(reads.status()).as(reads.body()).isEqualTo(200);
        JsonNode r = review(id);
        assertThat(op(r, create).path("is_enabled").asBoolean()).as("the POST overridden to read stays off").isFalse();
        assertThat(op(r, list).path("is_enabled").asBoolean()).as("the credential read stays off").isFalse();
        assertThat(op(r, list1).path("is_enabled").asBoolean()).as("an ordinary GET is opened").isTrue();
        var text = cli.run("connector", "review", id);
        assertThat(text.out()).contains("credential_read*").contains("CLASS* = set by an admin");
        // the admin may still open the POST explicitly
        assertThat(cli.run("connector", "edit-op", id, create, "--enable").exitCode()).isZero();
        assertThat(op(review(id), create).path("is_enabled").asBoolean()).isTrue();
        // the GET an admin made a credential read, enabled by hand, parks and is audited as a credential read
        assertThat(cli.run("connector", "edit-op", id, list, "--enable").exitCode()).isZero();
        assertThat(cli.run("connector", "enable", id, "--confirm").exitCode()).isZero();
        var t = kernel.send("POST", "/api/v1/targets", admin, JSON.writeValueAsString(Map.of("name", impl + "-t",
                "product", impl, "host", "127.0.0.1", "port", 9)), Map.of());
        assertThat(t.status()).as(t.body()).isEqualTo(201);
        var call = kernel.send("POST", "/api/v1/operations/call", operator, JSON.writeValueAsString(Map.of(
                "connector_id", id, "op_id", list, "target", impl + "-t", "params", Map.of())), Map.of());
        assertThat(call.body()).as(call.body()).contains("\"status\":\"awaiting_approval\"");
        assertThat(kernel.jdbc().queryOne("SELECT op_class FROM audit_rows WHERE tenant_id = ? AND op_id = ?",
                rs -> rs.getString(1), tenant, list).orElseThrow()).isEqualTo("credential_read");
        String governance = kernel.jdbc().query("SELECT extras::text FROM audit_rows WHERE tenant_id = ? AND op_id = "
                + "'svc.governance.PATCH /api/v1/connectors/{connector_id}/operations/{op_id}'", rs -> rs.getString(1),
                tenant).toString();
        assertThat(governance).as("the override's class is kept as sent").contains("\"op_class\": \"read\"")
                .contains("\"op_class\": \"credential_read\"");

        // precedence: the rules file beats the heuristic, an admin's edit-op beats the rules file
        String impl2 = implOf("prec");
        String id2 = impl2 + "-1.x";
        Map<String, Object> body = manual(impl2, "1.x", "p.json", SpecIngestIT.spec("Prec", "1.0", 1));
        body.put("rules", List.of(Map.of("match", Map.of("op_id", impl2 + ".things_0.list_things0"),
                "op_class", "credential_read", "reason", "lists secrets")));
        var ruled = ingest(body);
        assertThat(ruled.status()).as(ruled.body()).isEqualTo(200);
        assertThat(ruled.json().path("classification_rules").get(0).path("op_ids").get(0).asText())
                .isEqualTo(impl2 + ".things_0.list_things0");
        assertThat(op(review(id2), impl2 + ".things_0.list_things0").path("op_class").asText())
                .isEqualTo("credential_read");
        var back = patch(id2, impl2 + ".things_0.list_things0", "{\"op_class\": \"read\"}");
        assertThat(back.status()).as(back.body()).isEqualTo(200);
        assertThat(back.json().path("op_class").asText()).isEqualTo("read");
        assertThat(back.json().path("read_class").asBoolean()).isTrue();
        assertThat(back.json().path("requires_approval").asBoolean())
                .as("the rules file's approval stays until the admin lifts it").isTrue();
        assertThat(kernel.send("POST", "/api/v1/connectors/" + id2 + "/enable-reads", admin, null, Map.of())
                .json().path("operations_changed").asInt()).as("the admin's read is opened").isEqualTo(1);
    }

    /**
     * Issue 44 I3, the read-only POSTs, and the reasons: Nomad's job plan and validate are reads the ingest names with
     * their reason; review shows every operation's reason, of one group with --group; enable-reads leaves the POSTs
     * off and says how to open them; --include-read-posts opens them, never a credential read, never a POST an admin
     * overrode to read.
     */
    @Test
    void postsThatOnlyReadAreReadsWithTheirReasonAndEnableReadsOpensThemWhenAsked() throws Exception {
        assumeTrue(Files.isRegularFile(NOMAD), "shared Nomad spec not found at " + NOMAD.toAbsolutePath());
        String impl = implOf("nomadp");
        String id = impl + "-1.x";
        CliRunner cli = kernel.cli(admin);
        var dry = cli.run("connector", "ingest", "--product", impl, "--impl", impl, "--version", "1.x", "--spec",
                NOMAD.toString(), "--tenant-id", tenant.toString(), "--dry-run");
        assertThat(dry.exitCode()).as(dry.toString()).isZero();
        assertThat(dry.out()).contains("classed by more than their HTTP method")
                .contains(impl + ".jobs.post_job_plan  read, safe — POST whose name says it only reads: 'plan'")
                .contains(impl + ".nodes.update_node_purge  write, dangerous, approval — POST whose name says it "
                        + "removes things: 'purge'");
        var done = cli.run("connector", "ingest", "--product", impl, "--impl", impl, "--version", "1.x", "--spec",
                NOMAD.toString(), "--tenant-id", tenant.toString(), "-o", "json");
        assertThat(done.exitCode()).as(done.toString()).isZero();
        JsonNode notes = JSON.readTree(done.out()).path("classification_notes");
        assertThat(notes.path("count").asInt()).isEqualTo(notes.path("operations").size()).isGreaterThan(5);

        String plan = impl + ".jobs.post_job_plan";
        String validate = impl + ".jobs.post_job_validate_request";
        String parse = impl + ".jobs.post_job_parse";
        String register = impl + ".jobs.register_job";
        JsonNode r = review(id);
        for (JsonNode op : r.path("operations")) {
            assertThat(op.path("classification_reason").asText()).as(op.toString()).isNotBlank();
        }
        assertThat(op(r, plan).path("classification_reason").asText())
                .isEqualTo("POST whose name says it only reads: 'plan'");
        assertThat(op(r, plan).path("op_class").asText()).isEqualTo("read");
        assertThat(op(r, plan).path("requires_approval").asBoolean()).isFalse();
        assertThat(op(r, plan).path("read_class").asBoolean()).as("read-class stays GET/HEAD").isFalse();
        assertThat(op(r, parse).path("op_class").asText()).isEqualTo("credential_read");
        assertThat(op(r, parse).path("classification_reason").asText()).contains("Token");
        assertThat(op(r, register).path("classification_reason").asText()).isEqualTo("POST");
        assertThat(op(r, impl + ".jobs.get_jobs").path("classification_reason").asText()).isEqualTo("GET");

        // one group: its operations only; an unknown group is a clear 404
        var jobs = kernel.get("/api/v1/connectors/" + id + "?group=jobs", admin);
        assertThat(jobs.status()).as(jobs.body()).isEqualTo(200);
        assertThat(jobs.json().path("groups")).hasSize(1);
        assertThat(jobs.json().path("groups").get(0).path("group_key").asText()).isEqualTo("jobs");
        assertThat(jobs.json().path("operations").size()).isPositive()
                .isEqualTo(jobs.json().path("groups").get(0).path("operation_count").asInt());
        jobs.json().path("operations").forEach(o -> assertThat(o.path("group_key").asText()).isEqualTo("jobs"));
        var unknown = kernel.get("/api/v1/connectors/" + id + "?group=nope", admin);
        assertThat(unknown.status()).as(unknown.body()).isEqualTo(404);
        assertThat(unknown.json().path("error").asText()).isEqualTo("unknown_group");
        var text = cli.run("connector", "review", id, "--group", "jobs");
        assertThat(text.exitCode()).as(text.toString()).isZero();
        assertThat(text.out()).contains("WHY").contains("POST whose name says it only reads: 'plan'")
                .doesNotContain("[nodes]").doesNotContain(impl + ".nodes.");
        var badGroup = cli.run("connector", "review", id, "--group", "nope");
        assertThat(badGroup.exitCode()).as(badGroup.toString()).isNotZero();
        assertThat(badGroup.err()).contains("has no group 'nope'");

        // an admin's override shows in front of the connector's reason, and a POST overridden to read stays off
        var toRead = patch(id, register, "{\"op_class\": \"read\"}");
        assertThat(toRead.status()).as(toRead.body()).isEqualTo(200);
        assertThat(op(review(id), register).path("classification_reason").asText())
                .isEqualTo("set by an admin (edit-op); the connector's: POST");

        var reads = cli.run("connector", "enable-reads", id, "--confirm");
        assertThat(reads.exitCode()).as(reads.toString()).isZero();
        assertThat(reads.out()).contains("POST(s) that only read").contains("--include-read-posts");
        assertThat(op(review(id), plan).path("is_enabled").asBoolean()).as("left off by default").isFalse();
        var posts = cli.run("connector", "enable-reads", id, "--confirm", "--include-read-posts");
        assertThat(posts.exitCode()).as(posts.toString()).isZero();
        assertThat(posts.out()).doesNotContain("--include-read-posts");
        JsonNode after = review(id);
        assertThat(op(after, plan).path("is_enabled").asBoolean()).isTrue();
        assertThat(op(after, validate).path("is_enabled").asBoolean()).isTrue();
        assertThat(op(after, parse).path("is_enabled").asBoolean()).as("a credential read, never").isFalse();
        assertThat(op(after, register).path("is_enabled").asBoolean()).as("an admin's read of a POST, never")
                .isFalse();
        assertThat(op(after, impl + ".nodes.update_node_purge").path("is_enabled").asBoolean()).isFalse();
    }

    @Test
    void badValuesAnswerInvalidOverrideAndABadRulesFileWritesNothing() throws Exception {
        String impl = implOf("bad");
        String id = impl + "-1.x";
        String spec = SpecIngestIT.spec("Bad", "1.0", 1);
        assertThat(ingest(manual(impl, "1.x", "b.json", spec)).status()).isEqualTo(200);
        String list = impl + ".things_0.list_things0";
        var unknown = patch(id, list, "{\"op_class\": \"admin\"}");
        assertThat(unknown.status()).as(unknown.body()).isEqualTo(422);
        assertThat(unknown.json().path("error").asText()).isEqualTo("invalid_override");
        assertThat(unknown.json().path("message").asText()).contains("read, write or credential_read").contains("admin");
        assertThat(unknown.json().path("extras").path("field").asText()).isEqualTo("op_class");
        assertThat(patch(id, list, "{\"op_class\": \"other\"}").status()).isEqualTo(422);
        var notText = patch(id, list, "{\"op_class\": 5}");
        assertThat(notText.status()).as(notText.body()).isIn(400, 422);
        assertThat(op(review(id), list).path("op_class").asText()).as("nothing was stored").isEqualTo("read");
        var cliBad = kernel.cli(admin).run("connector", "edit-op", id, list, "--op-class", "secret");
        assertThat(cliBad.exitCode()).as(cliBad.toString()).isEqualTo(2);
        assertThat(cliBad.err()).contains("--op-class must be read, write or credential_read");

        String impl2 = implOf("badr");
        String id2 = impl2 + "-1.x";
        String first = impl2 + ".things_0.list_things0";
        // each bad rule, with what its message says
        List<Object[]> cases = List.of(
                new Object[] {Map.of("match", Map.of("op_id", first), "op_class", "secretish", "reason", "x"),
                        "op_class must be read, write or credential_read, got 'secretish'"},
                new Object[] {Map.of("match", Map.of("op_id", first), "safety", "risky", "reason", "x"),
                        "safety must be safe, caution or dangerous, got 'risky'"},
                new Object[] {Map.of("match", Map.of("method", "GET", "path", "/nowhere/*"), "op_class",
                        "credential_read", "reason", "x"), "matches no operation"},
                new Object[] {Map.of("match", Map.of("operation_id", "listThings0"), "op_class", "write"),
                        "needs a reason"},
                new Object[] {Map.of("match", Map.of("operation_id", "listThings0"), "op_class", "credential_read",
                        "requires_approval", false, "reason", "x"), "always requires approval"},
                new Object[] {Map.of("match", Map.of("operation_id", "listThings0"), "op_class", "write", "reason", "x",
                        "approve", true), "unknown field 'approve'"},
                new Object[] {Map.of("match", Map.of("method", "GET"), "op_class", "write", "reason", "x"),
                        "method alone is too broad"},
                new Object[] {Map.of("match", Map.of("op_id", first), "requires_approval", "yes", "reason", "x"),
                        "requires_approval must be true or false"});
        for (Object[] c : cases) {
            Map<String, Object> body = manual(impl2, "1.x", "b.json", spec);
            // a good rule first: the bad second one still refuses the whole ingest
            body.put("rules", List.of(Map.of("match", Map.of("operation_id", "createThings0"), "safety", "dangerous",
                    "reason", "fine"), c[0]));
            var r = ingest(body);
            assertThat(r.status()).as(c[1] + ": " + r.body()).isEqualTo(422);
            assertThat(r.json().path("error").asText()).isEqualTo("invalid_override");
            assertThat(r.json().path("extras").path("rule").asInt()).isEqualTo(2);
            assertThat(r.json().path("message").asText()).startsWith("rule 2").contains((String) c[1]);
        }
        Map<String, Object> notAList = manual(impl2, "1.x", "b.json", spec);
        notAList.put("rules", Map.of("match", "x"));
        assertThat(ingest(notAList).json().path("error").asText()).isEqualTo("invalid_override");
        assertThat(kernel.get("/api/v1/connectors/" + id2, admin).status()).as("nothing was written").isEqualTo(404);
        assertThat(auditRows(IngestRun.RULE_AUDIT_OP, id2)).isZero();

        CliRunner cli = kernel.cli(admin);
        Path specFile = cli.file("b.json", spec);
        Path none = cli.file("none.yaml", "- match: {op_id: " + impl2 + ".nope.nothing}\n  op_class: write\n"
                + "  reason: typo\n");
        var refused = cli.run("connector", "ingest", "--product", impl2, "--impl", impl2, "--version", "1.x",
                "--spec", specFile.toString(), "--tenant-id", tenant.toString(), "--rules", none.toString());
        assertThat(refused.exitCode()).as(refused.toString()).isNotZero();
        assertThat(refused.err()).contains("invalid_override").contains("matches no operation");
        Path notRules = cli.file("bad.yaml", "op_class: write\n");
        var usage = cli.run("connector", "ingest", "--product", impl2, "--impl", impl2, "--version", "1.x",
                "--spec", specFile.toString(), "--tenant-id", tenant.toString(), "--rules", notRules.toString());
        assertThat(usage.exitCode()).as(usage.toString()).isEqualTo(2);
        assertThat(usage.err()).contains("must hold a list of rules");
        assertThat(kernel.get("/api/v1/connectors/" + id2, admin).status()).isEqualTo(404);
    }
}
