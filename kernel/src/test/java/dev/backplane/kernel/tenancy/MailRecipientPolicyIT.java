package dev.backplane.kernel.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.PerTestTenant;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The tenant mail-recipient policy over REST and the CLI: unset until set (mail denied), an allowlist
 * normalised, {@code ""} denying all, clear back to unset; tenant_admin writes, read_only reads; bad entries
 * 422 naming the entry; one tenant's policy invisible to another; every write on the governance trail.
 */
class MailRecipientPolicyIT extends PerTestTenant {

    private static final String PATH = "/api/v1/tenants/current/mail-recipient-policy";
    private final String readOnly = issuer.token("ro-" + tenant, tenant, "read_only");

    private JsonNode put(String token, String allowlist, int status) {
        var r = kernel.put(PATH, token, Map.of("allowlist", allowlist));
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        return r.json();
    }

    private List<String> governanceRows(int expected) throws InterruptedException {
        // the route-level row is written just after the answer
        Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
        List<String> rows;
        do {
            rows = kernel.jdbc().query("SELECT principal || ' ' || op_id || ' ' || coalesce(extras->'change'->>'allowlist', "
                    + "'-') FROM audit_rows WHERE tenant_id = ? AND op_id LIKE 'svc.governance.%mail-recipient-policy' "
                    + "ORDER BY occurred_at", rs -> rs.getString(1), tenant);
            if (rows.size() >= expected) {
                return rows;
            }
            Thread.sleep(50);
        } while (Instant.now().isBefore(deadline));
        return rows;
    }

    @Test
    void unsetThenAllowlistThenDenyAllThenClearedEachAudited() throws Exception {
        JsonNode unset = kernel.get(PATH, readOnly).json();
        assertThat(unset.path("mode").asText()).isEqualTo("unset");
        assertThat(unset.path("allowlist").isNull()).isTrue();

        JsonNode set = put(admin, " Oncall@Example.com, .Example.org,example.net, oncall@example.com,", 200);
        assertThat(set.path("mode").asText()).isEqualTo("allowlist");
        assertThat(set.path("allowlist").asText()).isEqualTo("oncall@example.com,.example.org,example.net");
        assertThat(set.path("updated_by").asText()).isEqualTo("admin-" + tenant);
        assertThat(kernel.get(PATH, operator).json().path("entries").size()).isEqualTo(3);

        JsonNode none = put(admin, "", 200);
        assertThat(none.path("mode").asText()).isEqualTo("deny_all");
        assertThat(none.path("allowlist").asText()).isEmpty();
        assertThat(kernel.get(PATH, readOnly).json().path("mode").asText()).isEqualTo("deny_all");

        var cleared = kernel.delete(PATH, admin);
        assertThat(cleared.status()).isEqualTo(200);
        assertThat(cleared.json().path("mode").asText()).isEqualTo("unset");
        assertThat(kernel.get(PATH, readOnly).json().path("mode").asText()).isEqualTo("unset");
        assertThat(kernel.delete(PATH, admin).status()).as("clearing an unset policy is fine").isEqualTo(200);

        String who = "admin-" + tenant + " svc.governance.";
        assertThat(governanceRows(4)).containsExactly(
                who + "PUT " + PATH + " " + " Oncall@Example.com, .Example.org,example.net, oncall@example.com,",
                who + "PUT " + PATH + " ", who + "DELETE " + PATH + " -", who + "DELETE " + PATH + " -");
    }

    @Test
    void onlyTenantAdminsWriteAndRefusalsLeaveNoTrail() throws Exception {
        for (String token : List.of(operator, readOnly)) {
            var r = kernel.put(PATH, token, Map.of("allowlist", "example.com"));
            assertThat(r.status()).isEqualTo(403);
            assertThat(r.json().path("error").asText()).isEqualTo("insufficient_role");
            assertThat(kernel.delete(PATH, token).status()).isEqualTo(403);
        }
        assertThat(kernel.get(PATH, null).status()).isEqualTo(401);
        assertThat(kernel.get(PATH, operator).json().path("mode").asText()).isEqualTo("unset");
        Thread.sleep(300);
        assertThat(governanceRows(0)).isEmpty();
    }

    @Test
    void badInputIs422NamingTheEntryOr400AndNothingChanges() {
        put(admin, "example.com", 200);
        for (String bad : List.of("ok.example.com, not a domain", "localhost", "a@b@example.com", "*.example.com",
                "10.0.0.1", "x".repeat(300) + ".com")) {
            var r = kernel.put(PATH, admin, Map.of("allowlist", bad));
            assertThat(r.status()).as(bad + ": " + r.body()).isEqualTo(422);
            assertThat(r.json().path("error").asText()).isEqualTo("invalid_policy");
            assertThat(r.json().path("extras").path("entry").asText()).as(r.body()).isNotEmpty();
            assertThat(bad.toLowerCase()).contains(r.json().path("extras").path("entry").asText().replace("…", ""));
        }
        var missing = kernel.put(PATH, admin, Map.of());
        assertThat(missing.status()).as(missing.body()).isEqualTo(422);
        assertThat(missing.json().path("error").asText()).isEqualTo("invalid_policy");
        for (String body : List.of("{\"allowlist\": [\"a@example.com\"]}", "{\"allowlist\": 3}", "not json",
                "{\"allowlist\": \"x.com\", \"extra\": 1}")) {
            int status = kernel.send("PUT", PATH, admin, body, Map.of()).status();
            assertThat(status).as(body).isBetween(400, 422);
        }
        assertThat(kernel.get(PATH, admin).json().path("allowlist").asText()).isEqualTo("example.com");
    }

    @Test
    void aTenantSeesAndChangesOnlyItsOwnPolicy() {
        UUID other = UUID.randomUUID();
        put(admin, "mine.example.com", 200);
        assertThat(kernel.get(PATH, issuer.operator(other)).json().path("mode").asText()).isEqualTo("unset");
        assertThat(kernel.delete(PATH, issuer.tenantAdmin(other)).status()).isEqualTo(200);
        assertThat(kernel.get(PATH, operator).json().path("allowlist").asText()).isEqualTo("mine.example.com");
    }

    @Test
    void theCliShowsSetsDeniesAllAndClears() {
        CliRunner adm = kernel.cli(admin);
        CliRunner op = kernel.cli(operator);
        assertThat(op.run("tenants", "mail-recipient-policy", "show").out()).contains("unset");
        var usage = adm.run("tenants", "mail-recipient-policy", "set");
        assertThat(usage.exitCode()).as(usage.toString()).isEqualTo(2);
        assertThat(adm.run("tenants", "mail-recipient-policy", "set", "--allowlist", "x.com", "--clear").exitCode())
                .isEqualTo(2);

        var set = adm.run("tenants", "mail-recipient-policy", "set", "--allowlist", "Ops@Example.com,example.org");
        assertThat(set.exitCode()).as(set.toString()).isZero();
        assertThat(set.out()).contains("ops@example.com,example.org");
        var json = op.run("tenants", "mail-recipient-policy", "show", "--json");
        assertThat(json.out()).contains("\"mode\" : \"allowlist\"").contains("\"entries\"");

        var refused = op.run("tenants", "mail-recipient-policy", "set", "--allowlist", "x.com");
        assertThat(refused.exitCode()).as(refused.toString()).isNotZero();
        assertThat(refused.err()).contains("insufficient_role");
        var bad = adm.run("tenants", "mail-recipient-policy", "set", "--allowlist", "ops@example.com,nope");
        assertThat(bad.exitCode()).as(bad.toString()).isEqualTo(1);
        assertThat(bad.err()).contains("'nope'");

        var denyAll = adm.run("tenants", "mail-recipient-policy", "set", "--allowlist", "");
        assertThat(denyAll.exitCode()).as(denyAll.toString()).isZero();
        assertThat(denyAll.out()).contains("deny_all");
        var clear = adm.run("tenants", "mail-recipient-policy", "set", "--clear");
        assertThat(clear.exitCode()).as(clear.toString()).isZero();
        assertThat(clear.out()).contains("unset");
    }
}
