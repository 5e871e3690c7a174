package dev.backplane.kernel.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.PerTestTenant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A tenant's display name over REST and the CLI: none until a tenant_admin sets one, trimmed, cleared by DELETE;
 * bad names 422 naming the field and changing nothing; read_only reads, only tenant_admin writes; each write on the
 * governance trail; another tenant's name is not this one's.
 */
class TenantDisplayNameIT extends PerTestTenant {

    private static final String CURRENT = "/api/v1/tenants/current";
    private static final String NAME = CURRENT + "/display-name";
    private final String readOnly = issuer.token("ro-" + tenant, tenant, "read_only");

    @Test
    void aTenantAdminNamesTheTenantAndEveryoneReadsIt() {
        JsonNode none = kernel.get(CURRENT, readOnly).json();
        assertThat(none.path("id").asText()).isEqualTo(tenant.toString());
        assertThat(none.path("display_name").isNull()).isTrue();

        var named = kernel.put(NAME, admin, Map.of("display_name", "  Payments EU  "));
        assertThat(named.status()).as(named.body()).isEqualTo(200);
        assertThat(named.json().path("display_name").asText()).isEqualTo("Payments EU");
        assertThat(named.json().path("display_name_updated_by").asText()).isEqualTo("admin-" + tenant);
        assertThat(kernel.get(CURRENT, readOnly).json().path("display_name").asText()).isEqualTo("Payments EU");

        for (Object bad : List.of("", "   ", "x".repeat(101), "tab\there")) {
            var r = kernel.put(NAME, admin, Map.of("display_name", bad));
            assertThat(r.status()).as(String.valueOf(bad)).isEqualTo(422);
            assertThat(r.json().path("error").asText()).isEqualTo("invalid_request");
            assertThat(r.json().path("extras").path("field").asText()).isEqualTo("display_name");
        }
        var missing = kernel.send("PUT", NAME, admin, "{}", Map.of());
        assertThat(missing.status()).as(missing.body()).isIn(400, 422);
        assertThat(kernel.get(CURRENT, readOnly).json().path("display_name").asText()).as("nothing changed")
                .isEqualTo("Payments EU");

        for (String token : List.of(operator, readOnly)) {
            assertThat(kernel.put(NAME, token, Map.of("display_name", "Mine")).status()).isEqualTo(403);
            assertThat(kernel.delete(NAME, token).status()).isEqualTo(403);
        }
        String other = issuer.token("admin-other-" + tenant, java.util.UUID.randomUUID(), "tenant_admin");
        assertThat(kernel.get(CURRENT, other).json().path("display_name").isNull()).as("another tenant's").isTrue();

        var cleared = kernel.delete(NAME, admin);
        assertThat(cleared.status()).isEqualTo(200);
        assertThat(cleared.json().path("display_name").isNull()).isTrue();
        // the route-level rows are written just after the answers
        List<String> rows = List.of();
        for (long until = System.nanoTime() + 10_000_000_000L; rows.size() < 2 && System.nanoTime() < until; ) {
            rows = kernel.jdbc().query("SELECT op_id FROM audit_rows WHERE tenant_id = ? AND op_id LIKE "
                    + "'svc.governance.%display-name' ORDER BY occurred_at", rs -> rs.getString(1), tenant);
        }
        assertThat(rows).as("refusals leave no row").containsExactly("svc.governance.PUT " + NAME,
                "svc.governance.DELETE " + NAME);
    }

    @Test
    void theCliShowsRenamesAndClears() {
        CliRunner cli = kernel.cli(admin);
        CliRunner.Result renamed = cli.run("tenants", "rename", "Edge Ops");
        assertThat(renamed.exitCode()).as(renamed.toString()).isZero();
        assertThat(renamed.out()).contains("Edge Ops").contains(tenant.toString());
        assertThat(cli.run("tenants", "show").out()).contains("name     Edge Ops");
        assertThat(cli.run("tenants", "rename").exitCode()).as("a name or --clear is required").isEqualTo(2);
        CliRunner.Result cleared = cli.run("tenants", "rename", "--clear");
        assertThat(cleared.exitCode()).as(cleared.toString()).isZero();
        assertThat(cleared.out()).contains("(none");
    }
}
