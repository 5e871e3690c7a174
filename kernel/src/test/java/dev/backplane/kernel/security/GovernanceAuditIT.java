package dev.backplane.kernel.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.audit.AuditExtras;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.audit.GovernanceAudit;
import dev.backplane.kernel.catalog.SpecIngestIT;
import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.ScriptedModel;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import dev.backplane.kernel.util.Digests;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Security review D7: every governance change made over REST leaves an audit row naming who made it,
 * what route and object, and the change as sent — with secret values never in it — and a refused
 * change leaves none. Review-3 S4/S8: what the trail keeps of a body is an allowlist per route, so a
 * private memory body, an agent run's prompt and a spec's content are kept only as sha256 and size; and
 * every audit row, whoever writes it, is bounded, and an audit read never pulls an oversized row.
 */
class GovernanceAuditIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyGovernanceChangeIsAuditedWithWhoWhatAndTheChange() throws Exception {
        Path work = TempDirs.create("svc-governance-audit");
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        TestPlugins.build(plugins, TestPlugins.connector("gov", "1.x").product("gov").ranges("*").httpProbe(false));
        UUID tenant = UUID.randomUUID();
        String canary = "canary-" + UUID.randomUUID();
        try (TestIssuer issuer = new TestIssuer();
             TestKernel k = TestKernel.start(work.resolve("data"), TestKernel.settings(issuer, plugins))) {
            String admin = issuer.token("gov-admin", tenant, "tenant_admin");
            String operator = issuer.token("gov-op", tenant, "operator");
            List<String[]> changes = List.of(
                    new String[] {"POST", "/api/v1/connectors/gov-1.x/enable-reads", null},
                    new String[] {"POST", "/api/v1/connectors/gov-1.x/enable", null},
                    new String[] {"PATCH", "/api/v1/connectors/gov-1.x/operations/gov.item0.list",
                            "{\"custom_description\": \"reviewed\"}"},
                    new String[] {"POST", "/api/v1/targets", "{\"name\": \"g1\", \"product\": \"gov\", \"host\": "
                            + "\"127.0.0.1\", \"port\": 9}"},
                    new String[] {"PATCH", "/api/v1/targets/g1", "{\"notes\": \"moved racks\"}"},
                    new String[] {"PUT", "/api/v1/targets/g1/secret", "{\"fields\": {\"username\": \"svc\", "
                            + "\"password\": \"" + canary + "\"}}"},
                    new String[] {"POST", "/api/v1/agent-grants", "{\"principal\": \"bot\", \"op\": \"gov.*\", "
                            + "\"verdict\": \"deny\"}"},
                    new String[] {"POST", "/api/v1/kb", "{\"slug\": \"gov-note\", \"body\": \"audited change\"}"},
                    new String[] {"DELETE", "/api/v1/kb/gov-note", null},
                    new String[] {"POST", "/api/v1/memory", "{\"scope\": \"tenant\", \"slug\": \"gov-mem\", "
                            + "\"body\": \"tenant memory\"}"},
                    new String[] {"PATCH", "/api/v1/tenants/current/flight-recorder-policy",
                            "{\"retention_days\": 30}"},
                    new String[] {"POST", "/api/v1/connectors/ingest", JSON.writeValueAsString(Map.of("product", "govx",
                            "version", "1.x", "tenant_id", tenant.toString(), "specs", List.of(Map.of("name", "g.json",
                                    "content", SpecIngestIT.spec("Gov", "1.0", 1)))))},
                    new String[] {"DELETE", "/api/v1/targets/g1", null});
            for (String[] c : changes) {
                var r = k.send(c[0], c[1], admin, c[2], Map.of());
                assertThat(r.status()).as(c[0] + " " + c[1] + ": " + r.body()).isLessThan(300);
            }
            // refused changes leave no governance row
            assertThat(k.send("POST", "/api/v1/connectors/gov-1.x/disable", operator, null, Map.of()).status())
                    .isEqualTo(403);
            assertThat(k.send("POST", "/api/v1/targets", admin, "{\"name\": \"bad name!\"}", Map.of()).status())
                    .isEqualTo(422);

            Jdbc jdbc = new Jdbc(k.kernel().database().dataSource());
            List<String> rows = jdbc.query("SELECT principal || ' ' || op_id FROM audit_rows WHERE tenant_id = ? "
                    + "AND op_id LIKE 'svc.governance.%' ORDER BY occurred_at", rs -> rs.getString(1), tenant);
            assertThat(rows).containsExactly(
                    "gov-admin svc.governance.POST /api/v1/connectors/{connector_id}/enable-reads",
                    "gov-admin svc.governance.POST /api/v1/connectors/{connector_id}/enable",
                    "gov-admin svc.governance.PATCH /api/v1/connectors/{connector_id}/operations/{op_id}",
                    "gov-admin svc.governance.POST /api/v1/targets",
                    "gov-admin svc.governance.PATCH /api/v1/targets/{name}",
                    "gov-admin svc.governance.PUT /api/v1/targets/{name}/secret",
                    "gov-admin svc.governance.POST /api/v1/agent-grants",
                    "gov-admin svc.governance.POST /api/v1/kb",
                    "gov-admin svc.governance.DELETE /api/v1/kb/{slug}",
                    "gov-admin svc.governance.POST /api/v1/memory",
                    "gov-admin svc.governance.PATCH /api/v1/tenants/current/flight-recorder-policy",
                    "gov-admin svc.governance.POST /api/v1/connectors/ingest",
                    "gov-admin svc.governance.DELETE /api/v1/targets/{name}");
            String patch = jdbc.queryOne("SELECT extras::text FROM audit_rows WHERE tenant_id = ? AND op_id = "
                    + "'svc.governance.PATCH /api/v1/targets/{name}'", rs -> rs.getString(1), tenant).orElseThrow();
            assertThat(patch).contains("moved racks").contains("\"name\": \"g1\"");
            String secret = jdbc.queryOne("SELECT extras::text FROM audit_rows WHERE tenant_id = ? AND op_id = "
                    + "'svc.governance.PUT /api/v1/targets/{name}/secret'", rs -> rs.getString(1), tenant).orElseThrow();
            assertThat(secret).contains("password").contains("username").doesNotContain(canary);
            assertThat(jdbc.queryOne("SELECT count(*) FROM audit_rows WHERE extras::text LIKE ?", rs -> rs.getLong(1),
                    "%" + canary + "%").orElseThrow()).isZero();
        }
    }

    @Test
    void privateMemoryRunPromptsAndSpecsAreDigestsAndEveryAuditRowIsBounded() throws Exception {
        Path work = TempDirs.create("svc-governance-audit-bounded");
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        UUID tenant = UUID.randomUUID();
        String memory = "private-memory-" + UUID.randomUUID();
        String prompt = "run-prompt-" + UUID.randomUUID();
        String specMark = "spec-content-" + UUID.randomUUID();
        try (TestIssuer issuer = new TestIssuer(); ScriptedModel model = new ScriptedModel()) {
            Map<String, String> settings = TestKernel.settings(issuer, plugins);
            settings.put("SVC_AGENTS_MODEL_BASE_URL", model.baseUrl());
            model.otherwise(ScriptedModel.text("done"));
            try (TestKernel k = TestKernel.start(work.resolve("data"), settings)) {
                String admin = issuer.token("gov-admin", tenant, "tenant_admin");
                String carol = issuer.token("carol", tenant, "operator");
                String dave = issuer.token("dave", tenant, "operator");
                // Carol's private memory, and two agent runs with her prompts
                var saved = k.post("/api/v1/memory", carol, Map.of("scope", "user-tenant", "slug", "carol-note",
                        "body", memory, "tags", List.of("private")));
                assertThat(saved.status()).as(saved.body()).isLessThan(300);
                assertThat(k.post("/api/v1/agent-principals", admin, Map.of("name", "audit-bot")).status())
                        .isEqualTo(201);
                var def = k.post("/api/v1/agents", admin, Map.of("name", "auditor", "identity_ref", "audit-bot",
                        "system_prompt", "You answer briefly."));
                assertThat(def.status()).as(def.body()).isEqualTo(201);
                var run = k.post("/api/v1/agents/auditor/runs", carol, Map.of("input", prompt + " one",
                        "work_ref", "CHG-9"));
                assertThat(run.status()).as(run.body()).isEqualTo(200);
                var streamed = k.send("POST", "/api/v1/agents/auditor/run-events", carol,
                        JSON.writeValueAsString(Map.of("input", prompt + " two")), Map.of("Accept", "text/event-stream"));
                assertThat(streamed.status()).as(streamed.body()).isEqualTo(200);
                // a dry-run ingest of a spec far larger than any audit row may be
                String spec = SpecIngestIT.spec("Big " + specMark, "1.0", 300);
                assertThat(spec.length()).isGreaterThan(100 * 1024);
                var ingest = k.post("/api/v1/connectors/ingest", admin, Map.of("product", "bigx", "version", "1.x",
                        "tenant_id", tenant.toString(), "dry_run", true, "specs", List.of(Map.of("name", "big.json",
                                "content", spec))));
                assertThat(ingest.status()).as(ingest.body()).isEqualTo(200);

                Jdbc jdbc = k.jdbc();
                Map<String, JsonNode> rows = new java.util.LinkedHashMap<>();
                // the trail's row is written once the route has answered: wait for the last one
                for (int i = 0; i < 100 && !rows.containsKey("svc.governance.POST /api/v1/connectors/ingest"); i++) {
                    Thread.sleep(i == 0 ? 0 : 50);
                    rows.clear();
                    jdbc.query("SELECT op_id, extras::text FROM audit_rows WHERE tenant_id = ? AND op_id LIKE "
                            + "'svc.governance.%' ORDER BY occurred_at", rs -> rows.put(rs.getString(1),
                                    tree(rs.getString(2))), tenant);
                }
                assertThat(rows.keySet()).contains("svc.governance.POST /api/v1/memory",
                        "svc.governance.POST /api/v1/agents/{name}/runs",
                        "svc.governance.POST /api/v1/agents/{name}/run-events",
                        "svc.governance.POST /api/v1/connectors/ingest");
                JsonNode mem = rows.get("svc.governance.POST /api/v1/memory").path("change");
                assertThat(mem.path("scope").asText()).isEqualTo("user-tenant");
                assertThat(mem.path("slug").asText()).isEqualTo("carol-note");
                assertThat(mem.path("body").path("sha256").asText()).isEqualTo(Digests.sha256Hex(memory));
                assertThat(mem.path("body").path("size_bytes").asInt()).isEqualTo(memory.length());
                JsonNode runChange = rows.get("svc.governance.POST /api/v1/agents/{name}/runs").path("change");
                assertThat(runChange.path("input").path("sha256").asText()).isEqualTo(Digests.sha256Hex(prompt + " one"));
                assertThat(runChange.path("work_ref").asText()).isEqualTo("CHG-9");
                assertThat(rows.get("svc.governance.POST /api/v1/agents/{name}/run-events").path("change").path("input")
                        .path("sha256").asText()).isEqualTo(Digests.sha256Hex(prompt + " two"));
                JsonNode ingested = rows.get("svc.governance.POST /api/v1/connectors/ingest").path("change");
                assertThat(ingested.path("dry_run").asBoolean()).isTrue();
                assertThat(ingested.path("specs").get(0).path("name").asText()).isEqualTo("big.json");
                assertThat(ingested.path("specs").get(0).path("size_bytes").asInt())
                        .isEqualTo(spec.getBytes(StandardCharsets.UTF_8).length);
                assertThat(ingested.path("specs").get(0).path("sha256").asText()).isEqualTo(Digests.sha256Hex(spec));

                // nothing private in any row, nor in what another operator reads
                for (String secret : List.of(memory, prompt, specMark)) {
                    assertThat(jdbc.queryOne("SELECT count(*) FROM audit_rows WHERE strpos(extras::text, ?) > 0",
                            rs -> rs.getLong(1), secret).orElseThrow()).as(secret).isZero();
                }
                var read = k.get("/api/v1/audit?op_id=svc.governance.*&limit=1000", dave);
                assertThat(read.status()).isEqualTo(200);
                assertThat(read.json().path("rows").size()).as("memory, agent definition, two runs, ingest").isEqualTo(5);
                assertThat(read.body()).doesNotContain(memory).doesNotContain(prompt).doesNotContain(specMark);

                // every row the kernel wrote for the tenant is bounded
                assertThat(jdbc.queryOne("SELECT max(octet_length(extras::text)) FROM audit_rows WHERE tenant_id = ?",
                        rs -> rs.getInt(1), tenant).orElseThrow()).isLessThanOrEqualTo(2 * AuditExtras.MAX_BYTES);

                // the bound holds at the single place rows are written, whoever hands it a large value
                AuditLog log = new AuditLog(jdbc);
                String huge = "x".repeat(1 << 20) + specMark;
                AuditLog.Entry entry = new AuditLog.Entry(tenant, "tester", "human", "other", "test.big.record",
                        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                        Optional.empty(), Optional.empty());
                UUID recorded = log.record(entry, "ok", Optional.empty(), Optional.empty(),
                        Map.of("small", "kept", "huge", huge));
                UUID inTx = jdbc.inTransaction(c -> log.recordIn(c, new AuditLog.Entry(tenant, "tester", "human",
                        "other", "test.big.record-in", Optional.empty(), Optional.empty(), Optional.empty(),
                        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()), "ok", Optional.empty(),
                        Map.of("huge", huge)));
                for (UUID id : List.of(recorded, inTx)) {
                    String text = jdbc.queryOne("SELECT extras::text FROM audit_rows WHERE id = ?", rs -> rs.getString(1),
                            id).orElseThrow();
                    assertThat(text.length()).as(id.toString()).isLessThanOrEqualTo(2 * AuditExtras.MAX_BYTES);
                    assertThat(text).doesNotContain(specMark);
                    JsonNode extras = tree(text);
                    assertThat(extras.path("huge").path("sha256").asText()).isEqualTo(Digests.sha256Hex(JSON
                            .writeValueAsString(huge)));
                    assertThat(extras.path(AuditExtras.TRUNCATED).path("size_bytes").asInt()).isGreaterThan(1 << 20);
                }
                assertThat(tree(jdbc.queryOne("SELECT extras::text FROM audit_rows WHERE id = ?", rs -> rs.getString(1),
                        recorded).orElseThrow()).path("small").asText()).isEqualTo("kept");

                // a row written before rows were bounded is answered as a marker with its size, not its content
                jdbc.update("""
                        INSERT INTO audit_rows (id, tenant_id, principal, principal_kind, op_class, op_id, result_status,
                               duration_ms, extras) VALUES (?, ?, 'legacy', 'human', 'other', 'test.legacy.big', 'ok', 0,
                               jsonb_build_object('change', ?::text))""", UUID.randomUUID(), tenant, huge);
                var legacy = k.get("/api/v1/audit?op_id=test.legacy.big", dave);
                assertThat(legacy.status()).isEqualTo(200);
                assertThat(legacy.json().path("rows")).hasSize(1);
                assertThat(legacy.body().length()).isLessThan(8 * 1024);
                assertThat(legacy.json().path("rows").get(0).path("extras").path(AuditExtras.TRUNCATED)
                        .path("size_bytes").asInt()).isGreaterThan(1 << 20);

                // every route whose fields are listed exists (a typo would silently leave that route as digests)
                Set<String> routes = new HashSet<>();
                for (ApiRoutes.Route r : k.kernel().api().routes()) {
                    routes.add(r.method() + " " + r.path());
                }
                routes.add("POST /ui/tenant");
                assertThat(routes).containsAll(GovernanceAudit.routesWithListedFields());
            }
        }
    }

    private static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
