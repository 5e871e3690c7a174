package dev.backplane.kernel.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.catalog.SpecIngestIT;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Security review D7: every governance change made over REST leaves an audit row naming who made it,
 * what route and object, and the change as sent — with secret values never in it — and a refused
 * change leaves none.
 */
class GovernanceAuditIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyGovernanceChangeIsAuditedWithWhoWhatAndTheChange() throws Exception {
        Path work = Files.createTempDirectory("svc-governance-audit");
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
}
