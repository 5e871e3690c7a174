package dev.backplane.kernel.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.PerTestTenant;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Agent definitions over real HTTP on a real kernel and PostgreSQL: create, list, show, partial edit,
 * delete; every bad field answered with its code and nothing written; roles; tenant isolation; the
 * governance audit trail; and the same through the CLI.
 */
class AgentDefinitionsIT extends PerTestTenant {

    private void principal(String name) {
        var r = kernel.post("/api/v1/agent-principals", admin, Map.of("name", name));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
    }

    private static Map<String, Object> definition(String name, String identity) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("identity_ref", identity);
        return m;
    }

    private long rows() {
        return kernel.jdbc().queryOne("SELECT count(*) FROM agent_definitions WHERE tenant_id = ?", rs -> rs.getLong(1),
                tenant).orElseThrow();
    }

    @Test
    void aDefinitionIsCreatedListedShownEditedAndDeleted() throws InterruptedException {
        principal("triage-bot");
        Map<String, Object> body = definition("triage", "triage-bot");
        body.put("system_prompt", "You triage alerts.");
        body.put("toolset", Map.of("call_operation", true, "search_docs", false));
        body.put("output_schema", Map.of("type", "object", "required", List.of("summary"),
                "properties", Map.of("summary", Map.of("type", "string"))));
        body.put("turn_budget", 12);
        var created = kernel.post("/api/v1/agents", admin, body);
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        JsonNode a = created.json();
        assertThat(a.path("enabled").asBoolean()).isTrue();
        assertThat(a.path("model_tier").asText()).isEqualTo("standard");
        assertThat(a.path("turn_budget").asInt()).isEqualTo(12);
        assertThat(a.path("created_by").asText()).isEqualTo("admin-" + tenant);
        List<String> tools = new java.util.ArrayList<>();
        a.path("tools").forEach(t -> tools.add(t.asText()));
        assertThat(tools).contains("call_operation", "search_memory", "result_query")
                .doesNotContain("search_docs", "add_to_memory", "add_to_knowledge");

        var list = kernel.get("/api/v1/agents", operator);
        assertThat(list.status()).isEqualTo(200);
        assertThat(list.json().path("agents")).hasSize(1);
        assertThat(kernel.get("/api/v1/agents/triage", operator).json().path("system_prompt").asText())
                .isEqualTo("You triage alerts.");

        var edited = kernel.patch("/api/v1/agents/triage", admin, Map.of("enabled", false, "model_tier", "deep"));
        assertThat(edited.status()).as(edited.body()).isEqualTo(200);
        assertThat(edited.json().path("enabled").asBoolean()).isFalse();
        assertThat(edited.json().path("model_tier").asText()).isEqualTo("deep");
        assertThat(edited.json().path("turn_budget").asInt()).as("a partial edit keeps the rest").isEqualTo(12);
        assertThat(edited.json().path("output_schema").path("required").get(0).asText()).isEqualTo("summary");
        Map<String, Object> clear = new LinkedHashMap<>();
        clear.put("output_schema", null);
        assertThat(kernel.patch("/api/v1/agents/triage", admin, clear).json().path("output_schema").isNull()).isTrue();

        assertThat(kernel.delete("/api/v1/agents/triage", admin).status()).isEqualTo(200);
        // the route-level trail is written as the handler returns, just after the answer went out
        List<String> audit = List.of();
        for (int i = 0; i < 100 && audit.size() < 4; i++) {
            audit = kernel.jdbc().query("SELECT op_id FROM audit_rows WHERE tenant_id = ? AND op_id LIKE 'svc.governance.%' "
                    + "ORDER BY occurred_at", rs -> rs.getString(1), tenant);
            if (audit.size() < 4) {
                Thread.sleep(50);
            }
        }
        assertThat(audit).as("every write leaves a governance audit row").containsExactly(
                "svc.governance.POST /api/v1/agents", "svc.governance.PATCH /api/v1/agents/{name}",
                "svc.governance.PATCH /api/v1/agents/{name}", "svc.governance.DELETE /api/v1/agents/{name}");
        assertThat(kernel.get("/api/v1/agents/triage", operator).status()).isEqualTo(404);
        assertThat(kernel.delete("/api/v1/agents/triage", admin).json().path("error").asText()).isEqualTo("agent_not_found");
    }

    @Test
    void badFieldsAreRefusedWithTheirCodeAndWriteNothing() {
        principal("ok-bot");
        kernel.post("/api/v1/agent-principals/ok-bot/revoke", admin, Map.of());
        principal("live-bot");
        record Bad(Map<String, Object> body, int status, String code) {
        }
        List<Bad> bad = List.of(
                new Bad(definition("Bad Name", "live-bot"), 422, "invalid_agent"),
                new Bad(definition("x".repeat(64), "live-bot"), 422, "invalid_agent"),
                new Bad(Map.of("name", "no-identity"), 422, "invalid_agent"),
                new Bad(definition("ghost", "no-such-principal"), 422, "unknown_identity"),
                new Bad(definition("revoked", "ok-bot"), 422, "unknown_identity"),
                new Bad(with(definition("tier", "live-bot"), "model_tier", "huge"), 422, "invalid_agent"),
                new Bad(with(definition("budget0", "live-bot"), "turn_budget", 0), 422, "invalid_agent"),
                new Bad(with(definition("budget", "live-bot"), "turn_budget", 1001), 422, "invalid_agent"),
                new Bad(with(definition("tools", "live-bot"), "toolset", List.of("call_operation")), 422, "invalid_toolset"),
                new Bad(with(definition("tools2", "live-bot"), "toolset", Map.of("rm_rf", true)), 422, "invalid_toolset"),
                new Bad(with(definition("tools3", "live-bot"), "toolset", Map.of("call_operation", "yes")), 422,
                        "invalid_toolset"),
                new Bad(with(definition("schema", "live-bot"), "output_schema", "object"), 422, "invalid_output_schema"),
                new Bad(with(definition("schema2", "live-bot"), "output_schema", Map.of("type", "nonsense")), 422,
                        "invalid_output_schema"),
                new Bad(with(definition("schema3", "live-bot"), "output_schema", Map.of("minLength", -1)), 422,
                        "invalid_output_schema"),
                new Bad(with(definition("prompt", "live-bot"), "system_prompt", "p".repeat(65_537)), 422, "invalid_agent"),
                new Bad(with(definition("field", "live-bot"), "surprise", 1), 422, "invalid_request"));
        for (Bad b : bad) {
            var r = kernel.post("/api/v1/agents", admin, b.body());
            assertThat(r.status()).as(b + " -> " + r.body()).isEqualTo(b.status());
            assertThat(r.json().path("error").asText()).as(r.body()).isEqualTo(b.code());
        }
        assertThat(rows()).isZero();
        assertThat(kernel.post("/api/v1/agents", admin, definition("once", "live-bot")).status()).isEqualTo(201);
        var twice = kernel.post("/api/v1/agents", admin, definition("once", "live-bot"));
        assertThat(twice.status()).isEqualTo(409);
        assertThat(twice.json().path("error").asText()).isEqualTo("agent_exists");
        var rename = kernel.patch("/api/v1/agents/once", admin, Map.of("name", "twice"));
        assertThat(rename.json().path("error").asText()).isEqualTo("invalid_agent");
        assertThat(kernel.patch("/api/v1/agents/once", admin, Map.of("identity_ref", "ok-bot")).json().path("error")
                .asText()).as("cannot be pointed at a revoked principal").isEqualTo("unknown_identity");
        assertThat(kernel.get("/api/v1/agents?limit=0", operator).json().path("error").asText()).isEqualTo("invalid_limit");
        assertThat(kernel.get("/api/v1/agents?limit=501", operator).status()).isEqualTo(422);
        assertThat(kernel.get("/api/v1/agents?offset=-1", operator).json().path("error").asText()).isEqualTo("invalid_offset");
        assertThat(rows()).isEqualTo(1);
    }

    private static Map<String, Object> with(Map<String, Object> m, String key, Object value) {
        m.put(key, value);
        return m;
    }

    @Test
    void writesNeedTenantAdminAndTenantsDoNotSeeEachOther() {
        principal("iso-bot");
        assertThat(kernel.post("/api/v1/agents", operator, definition("iso", "iso-bot")).json().path("error").asText())
                .isEqualTo("insufficient_role");
        assertThat(kernel.post("/api/v1/agents", admin, definition("iso", "iso-bot")).status()).isEqualTo(201);
        assertThat(kernel.patch("/api/v1/agents/iso", operator, Map.of("enabled", false)).status()).isEqualTo(403);
        assertThat(kernel.delete("/api/v1/agents/iso", operator).status()).isEqualTo(403);
        assertThat(kernel.get("/api/v1/agents", issuer.token("ro-" + tenant, tenant, "read_only")).status())
                .as("reads are operator").isEqualTo(403);
        UUID other = UUID.randomUUID();
        String otherAdmin = issuer.tenantAdmin(other);
        assertThat(kernel.get("/api/v1/agents/iso", otherAdmin).status()).isEqualTo(404);
        assertThat(kernel.get("/api/v1/agents", otherAdmin).json().path("agents")).isEmpty();
        assertThat(kernel.delete("/api/v1/agents/iso", otherAdmin).status()).isEqualTo(404);
        assertThat(kernel.post("/api/v1/agents", otherAdmin, definition("iso", "iso-bot")).json().path("error").asText())
                .as("another tenant's principal is not an identity here").isEqualTo("unknown_identity");
    }

    @Test
    void theCliManagesDefinitions() throws Exception {
        principal("cli-bot");
        CliRunner cli = kernel.cli(admin);
        Path schema = cli.file("schema.json", "{\"type\":\"object\",\"required\":[\"verdict\"]}");
        var create = cli.run("agent", "create", "cli-agent", "--identity-ref", "cli-bot", "--model-tier", "fast",
                "--system-prompt", "Be brief.", "--toolset", "{\"add_to_memory\":true}", "--output-schema", "@" + schema,
                "--turn-budget", "5");
        assertThat(create.exitCode()).as(create.toString()).isZero();
        assertThat(create.out()).contains("cli-agent").contains("as cli-bot").contains("tier fast").contains("add_to_memory");
        assertThat(cli.run("agent", "create", "no-id").exitCode()).as("--identity-ref required").isEqualTo(2);
        assertThat(cli.run("agent", "create", "x", "--identity-ref", "cli-bot", "--turn-budget", "0").exitCode())
                .isEqualTo(2);
        var list = cli.run("agent", "list");
        assertThat(list.out()).contains("cli-agent").contains("enabled").contains("fast");
        assertThat(cli.run("agent", "show", "cli-agent", "--json").out()).contains("\"verdict\"");
        var disable = cli.run("agent", "edit", "cli-agent", "--disabled");
        assertThat(disable.exitCode()).as(disable.toString()).isZero();
        assertThat(disable.out()).contains("DISABLED");
        assertThat(cli.run("agent", "edit", "cli-agent", "--enabled", "--output-schema", "null").out())
                .contains("enabled").doesNotContain("output schema");
        assertThat(cli.run("agent", "edit", "cli-agent").exitCode()).as("nothing to change").isEqualTo(2);
        var bad = cli.run("agent", "edit", "cli-agent", "--toolset", "{\"nope\":true}");
        assertThat(bad.exitCode()).isNotZero();
        assertThat(bad.err()).contains("unknown tool 'nope'");
        assertThat(cli.run("agent", "delete", "cli-agent").exitCode()).as("needs --confirm").isEqualTo(2);
        assertThat(cli.run("agent", "delete", "cli-agent", "--confirm").exitCode()).isZero();
        assertThat(cli.run("agent", "show", "cli-agent").exitCode()).isNotZero();
    }
}
