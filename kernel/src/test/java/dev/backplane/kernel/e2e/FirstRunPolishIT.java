package dev.backplane.kernel.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.LoopbackTarget;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestPlugins;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * What a new user meets on the first steps, through the real CLI against a real kernel and a plain-HTTP
 * loopback target: {@code svc targets add --extras}, a parked call that is said once and exits 4, and
 * approval lists and {@code audit who-touched} that show usernames beside the subs.
 */
class FirstRunPolishIT extends PerTestTenant {

    private static final String PASSWORD = "polish-pw-" + UUID.randomUUID();
    private static final List<String> HITS = new CopyOnWriteArrayList<>();
    private static LoopbackTarget target;
    private final String carolSub = "carol-" + UUID.randomUUID();
    private final String bobSub = "bob-" + UUID.randomUUID();
    private final String carol = issuer.token(c -> c.subject(carolSub).claim("preferred_username", "carol")
            .claim("tenant_id", tenant.toString()).claim("tenant_role", "tenant_admin"));
    private final String bob = issuer.token(c -> c.subject(bobSub).claim("preferred_username", "bob")
            .claim("tenant_id", tenant.toString()).claim("tenant_role", "tenant_admin"));

    @BeforeKernel
    static void start(KernelSetup setup) {
        target = LoopbackTarget.basicAuthItems(setup, "svc", PASSWORD, LoopbackTarget.recordInto(HITS));
        setup.plugin(TestPlugins.connector("polish", "1.x").product("polish").ranges("*").operations(6)
                .httpProbe(false));
    }

    private CliRunner cli(String token) throws Exception {
        return new CliRunner(TempDirs.create("svc-polish-cli")).env("SVC_TOKEN", token)
                .env("SVC_BACKPLANE", kernel.url()).env("SVC_INSECURE_ALLOW_HTTP", "1");
    }

    private void addTarget(String name) throws Exception {
        var added = cli(admin).run("targets", "add", name, "--product", "polish", "--host", "127.0.0.1", "--port",
                String.valueOf(target.port()), "--extras", "scheme=http", "--extras", "team=platform");
        assertThat(added.exitCode()).as(added.toString()).isZero();
        target.stageSecret(kernel, admin, name);
        kernel.enableConnector(admin, "polish-1.x");
    }

    @Test
    void targetsAddTakesExtrasAndAPlainHttpTargetAnswers() throws Exception {
        addTarget("plain");
        JsonNode t = kernel.get("/api/v1/targets/plain", admin).json();
        assertThat(t.path("extras").path("scheme").asText()).isEqualTo("http");
        assertThat(t.path("extras").path("team").asText()).isEqualTo("platform");

        // the extras make the connector speak plain HTTP: the call reaches the loopback server
        int before = HITS.size();
        var call = cli(admin).run("operation", "call", "polish-1.x", "polish.item0.list", "--target", "plain",
                "--params", "{\"count\": 2}", "--json");
        assertThat(call.exitCode()).as(call.toString()).isZero();
        assertThat(HITS.subList(before, HITS.size())).anyMatch(h -> h.startsWith("GET /items"));

        // bad input: the server's validation error with its code; a malformed flag is a usage error
        var badScheme = cli(admin).run("targets", "add", "ftp-one", "--product", "polish", "--host", "127.0.0.1",
                "--extras", "scheme=ftp");
        assertThat(badScheme.exitCode()).as(badScheme.toString()).isEqualTo(1);
        assertThat(badScheme.err()).contains("invalid_extras").contains("extras.scheme must be http or https");
        var rest = kernel.send("POST", "/api/v1/targets", admin, "{\"name\": \"ftp-two\", \"product\": \"polish\", "
                + "\"host\": \"127.0.0.1\", \"extras\": {\"scheme\": 7}}", Map.of());
        assertThat(rest.status()).as(rest.body()).isEqualTo(422);
        assertThat(rest.json().path("error").asText()).isEqualTo("invalid_extras");
        var noKey = cli(admin).run("targets", "add", "nokey", "--product", "polish", "--host", "127.0.0.1",
                "--extras", "=http");
        assertThat(noKey.exitCode()).as(noKey.toString()).isEqualTo(2);
        var noValue = cli(admin).run("targets", "add", "novalue", "--product", "polish", "--host", "127.0.0.1",
                "--extras", "scheme");
        assertThat(noValue.exitCode()).as(noValue.toString()).isEqualTo(2);
        assertThat(kernel.get("/api/v1/targets/nokey", admin).status()).isEqualTo(404);
    }

    @Test
    void aParkedCallIsSaidOnceAndExitsFourAndUsernamesShowBesideSubs() throws Exception {
        addTarget("parking");
        assertThat(kernel.send("PATCH", "/api/v1/connectors/polish-1.x/operations/polish.item5.delete", admin,
                "{\"is_enabled\": true, \"safety_level\": \"caution\"}", Map.of()).status()).isEqualTo(200);

        var parked = cli(carol).run("operation", "call", "polish-1.x", "polish.item5.delete", "--target", "parking",
                "--params", "{\"name\": \"old\"}", "--work-ref", "CHG-5");
        assertThat(parked.exitCode()).as(parked.toString()).isEqualTo(4);
        assertThat(parked.out()).containsOnlyOnce("parked for approval: request ");
        assertThat(parked.err()).as("parking is not an error").doesNotContain("error").isBlank();
        String id = parked.out().replaceAll("(?s).*parked for approval: request ([0-9a-f-]{36}).*", "$1");

        // the same through the family verb; --json still prints the envelope and exits 4
        var family = cli(carol).run("polish", "item5", "delete", "old2", "--target", "parking", "--json");
        assertThat(family.exitCode()).as(family.toString()).isEqualTo(4);
        assertThat(family.out()).contains("\"status\" : \"awaiting_approval\"");
        assertThat(family.err()).isBlank();
        var help = cli(carol).run("operation", "call", "--help");
        assertThat(help.out()).contains("Exit codes:").contains("parked for approval - not an error");

        // REST: the requester's username beside the sub, and the decider's once decided
        JsonNode listed = kernel.get("/api/v1/approvals?status=pending", admin).json();
        JsonNode mine = null;
        for (JsonNode a : listed) {
            if (a.path("id").asText().equals(id)) {
                mine = a;
            }
        }
        assertThat(mine).as(listed.toString()).isNotNull();
        assertThat(mine.path("requester").asText()).isEqualTo(carolSub);
        assertThat(mine.path("requester_username").asText()).isEqualTo("carol");
        assertThat(mine.path("decided_by_username").isNull()).isTrue();
        var table = cli(admin).run("approvals", "list", "--status", "pending");
        assertThat(table.exitCode()).as(table.toString()).isZero();
        assertThat(table.out()).contains("carol (" + carolSub + ")");

        var approved = cli(bob).run("approvals", "approve", id, "--reason", "checked");
        assertThat(approved.exitCode()).as(approved.toString()).isZero();
        JsonNode shown = kernel.get("/api/v1/approvals/" + id, admin).json();
        assertThat(shown.path("decided_by").asText()).isEqualTo(bobSub);
        assertThat(shown.path("decided_by_username").asText()).isEqualTo("bob");
        var show = cli(admin).run("approvals", "show", id);
        assertThat(show.out()).contains("carol (" + carolSub + ")").contains("bob (" + bobSub + ")");

        // audit who-touched: username beside the sub; a sub never seen with a username stays bare
        assertThat(cli(admin).run("operation", "call", "polish-1.x", "polish.item0.list", "--target", "parking")
                .exitCode()).isZero();
        JsonNode touched = kernel.get("/api/v1/audit/who-touched/parking", admin).json();
        assertThat(touched.findValuesAsText("username")).contains("carol");
        var who = cli(admin).run("audit", "who-touched", "parking");
        assertThat(who.exitCode()).as(who.toString()).isZero();
        assertThat(who.out()).contains("carol (" + carolSub + ")").contains("admin-" + tenant)
                .doesNotContain("(admin-" + tenant + ")");

        // a renamed user shows the new name; the table keeps one row per sub
        String renamed = issuer.token(c -> c.subject(carolSub).claim("preferred_username", "carol.new")
                .claim("tenant_id", tenant.toString()).claim("tenant_role", "tenant_admin"));
        assertThat(kernel.get("/api/v1/whoami", renamed).status()).isEqualTo(200);
        assertThat(kernel.get("/api/v1/approvals/" + id, admin).json().path("requester_username").asText())
                .isEqualTo("carol.new");
        assertThat(kernel.jdbc().queryOne("SELECT count(*) FROM tenancy_principal_names WHERE sub = ?",
                rs -> rs.getLong(1), carolSub)).hasValue(1L);
    }
}
