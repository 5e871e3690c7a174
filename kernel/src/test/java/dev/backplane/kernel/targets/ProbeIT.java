package dev.backplane.kernel.targets;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.KernelTest;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import dev.backplane.kernel.testing.TlsFixture;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Probe and discover through a real plugin, a real HTTPS target and the embedded kv store. */
@KernelTest
class ProbeIT {

    private static final String PASSWORD = "probe-pw-" + UUID.randomUUID();
    private static TestIssuer issuer;
    private static TestKernel kernel;
    private static TlsFixture https;
    private final UUID tenant = UUID.randomUUID();
    private final String admin = issuer.token("admin", tenant, "tenant_admin");
    private final String operator = issuer.token("op", tenant, "operator");

    @BeforeKernel
    static void start(KernelSetup setup) throws Exception {
        setup.plugin(TestPlugins.connector("fixhttp", "1.x").product("fixhttp").ranges("*").httpProbe(true));
        setup.plugin(TestPlugins.connector("fixnodisc", "1.x").product("nodisc").ranges("*").httpProbe(false));
        setup.plugin(TestPlugins.connector("fixold", "1.x").product("oldprod").ranges("1.x").httpProbe(false));
        https = setup.closeAfter(TlsFixture.start(setup.work(), "svc", PASSWORD));
    }

    private void register(String name, String product, Map<String, Object> extra) {
        Map<String, Object> body = new HashMap<>(Map.of("name", name, "product", product, "host", "127.0.0.1",
                "port", https.port()));
        body.putAll(extra);
        kernel.registerTarget(admin, body);
    }

    private void stage(String name, String password) {
        kernel.stageSecret(admin, name, Map.of("username", "svc", "password", password));
    }

    private JsonNode probe(String name) {
        var r = kernel.send("POST", "/api/v1/targets/" + name + "/probe", operator, null, Map.of());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json().path("fingerprint");
    }

    @Test
    void tlsFollowsTheTargetsPinAndServerName() throws Exception {
        register("pinned", "fixhttp", Map.of("tls_ca_pin", https.pem()));
        stage("pinned", PASSWORD);
        JsonNode mismatch = probe("pinned");
        assertThat(mismatch.path("reachable").asBoolean()).isFalse();
        assertThat(mismatch.path("error_code").asText()).isEqualTo("connector_tls_verify_failed");
        assertThat(mismatch.path("exception_message").asText()).contains("127.0.0.1").contains("svc.test");

        var patched = kernel.send("PATCH", "/api/v1/targets/pinned", admin, "{\"tls_server_name\": \"svc.test\"}", Map.of());
        assertThat(patched.status()).isEqualTo(200);
        JsonNode ok = probe("pinned");
        assertThat(ok.path("reachable").asBoolean()).as(ok.toString()).isTrue();
        assertThat(ok.path("version").asText()).isEqualTo("3.2.1");
        assertThat(ok.path("vendor").asText()).isEqualTo("fixture");
        assertThat(ok.path("product").asText()).isEqualTo("fixhttp-edition");
        assertThat(ok.path("probe_method").asText()).isEqualTo("GET /version");
        assertThat(ok.path("probed_at").asText()).endsWith("Z");
        assertThat(kernel.get("/api/v1/targets/pinned", operator).json().path("fingerprint").path("version").asText())
                .as("persisted").isEqualTo("3.2.1");

        register("unpinned", "fixhttp", Map.of());
        stage("unpinned", PASSWORD);
        assertThat(probe("unpinned").path("error_code").asText()).as("the system trust store does not know the cert")
                .isEqualTo("connector_tls_verify_failed");

        register("insecure", "fixhttp", Map.of("verify_tls", false));
        stage("insecure", PASSWORD);
        assertThat(probe("insecure").path("reachable").asBoolean()).isTrue();
    }

    @Test
    void credentialProblemsAreClear() throws Exception {
        register("wrongpw", "fixhttp", Map.of("verify_tls", false));
        stage("wrongpw", "not-the-password");
        JsonNode auth = probe("wrongpw");
        assertThat(auth.path("error_code").asText()).isEqualTo("connector_auth_failed");
        assertThat(auth.path("reachable").asBoolean()).as("the target answered").isTrue();
        assertThat(auth.toString()).doesNotContain("not-the-password");

        register("nosecret", "fixhttp", Map.of("verify_tls", false));
        var missing = kernel.send("POST", "/api/v1/targets/nosecret/probe", operator, null, Map.of());
        assertThat(missing.status()).isEqualTo(502);
        assertThat(missing.json().path("error").asText()).isEqualTo("connector_error");
        assertThat(missing.json().path("message").asText()).contains("KvCredentialsReadError");
        assertThat(missing.json().path("extras").path("expected_path").asText()).isEqualTo("tenants/" + tenant + "/nosecret");

        var partial = kernel.send("PUT", "/api/v1/targets/nosecret/secret", admin, "{\"fields\": {\"username\": \"svc\"}}",
                Map.of());
        assertThat(partial.status()).isEqualTo(200);
        JsonNode noField = probe("nosecret");
        assertThat(noField.path("error_code").asText()).isEqualTo("connector_error");
        assertThat(noField.path("reason").asText()).contains("KvCredentialsReadError (missing required field 'password')");
    }

    @Test
    void noConnectorForTheVersionIs501AndTheFingerprintStays() throws Exception {
        register("old", "oldprod", Map.of("version", "2.0", "verify_tls", false));
        var r = kernel.send("POST", "/api/v1/targets/old/probe", operator, null, Map.of());
        assertThat(r.status()).isEqualTo(501);
        assertThat(r.json().path("error").asText()).isEqualTo("no_connector");
        assertThat(kernel.get("/api/v1/targets/old", operator).json().path("fingerprint").isNull()).isTrue();
    }

    @Test
    void discoverListsCandidatesOrSaysItIsNotSupported() throws Exception {
        register("seed", "fixhttp", Map.of("verify_tls", false));
        stage("seed", PASSWORD);
        var found = kernel.send("POST", "/api/v1/targets/discover", operator,
                "{\"product\": \"fixhttp\", \"seed_target\": \"seed\"}", Map.of());
        assertThat(found.status()).as(found.body()).isEqualTo(200);
        assertThat(found.json().path("candidates").findValuesAsText("name")).containsExactly("node-a", "node-b");

        register("nd", "nodisc", Map.of("verify_tls", false));
        stage("nd", PASSWORD);
        var unsupported = kernel.send("POST", "/api/v1/targets/discover", operator,
                "{\"product\": \"nodisc\", \"seed_target\": \"nd\"}", Map.of());
        assertThat(unsupported.status()).isEqualTo(501);
        assertThat(unsupported.json().path("message").asText()).contains("not supported by this connector");
        assertThat(kernel.send("POST", "/api/v1/targets/discover", operator, "{\"product\": \"fixhttp\"}", Map.of())
                .status()).isEqualTo(422);
    }

    /**
     * Discovery answers a plan: the members an import takes as they are (names free in the tenant, the seed's
     * TLS trust inherited), those already registered listed with the reason; the CLI prints it as a targets.yaml
     * that import --dry-run accepts, and nothing is registered along the way.
     */
    @Test
    void discoveryIsAPlanThatImportAcceptsAndRegistersNothing() throws Exception {
        register("plan-seed", "fixhttp", Map.of("verify_tls", false));
        stage("plan-seed", PASSWORD);
        register("node-a", "fixhttp", Map.of("port", 9)); // the name is taken, at another address
        kernel.registerTarget(admin, Map.of("name", "known-b", "product", "fixhttp", "host", "127.0.0.1", "port", 7002));

        var r = kernel.send("POST", "/api/v1/targets/discover", operator,
                "{\"product\": \"fixhttp\", \"seed_target\": \"plan-seed\"}", Map.of());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        JsonNode plan = r.json();
        assertThat(plan.path("seed_target").asText()).isEqualTo("plan-seed");
        assertThat(plan.path("connector_id").asText()).isEqualTo("fixhttp-1.x");
        assertThat(plan.path("candidates")).hasSize(1);
        JsonNode a = plan.path("candidates").get(0);
        assertThat(a.path("name").asText()).isEqualTo("node-a-2");
        assertThat(a.path("port").asInt()).isEqualTo(7001);
        assertThat(a.path("verify_tls").isBoolean() && !a.path("verify_tls").asBoolean()).as("the seed's trust").isTrue();
        assertThat(plan.path("skipped").findValuesAsText("reason")).containsExactly("already_registered");
        assertThat(plan.path("skipped").get(0).path("message").asText()).isEqualTo("registered as target known-b");
        assertThat(plan.path("omitted").asInt()).isZero();

        assertThat(kernel.send("POST", "/api/v1/targets/discover", issuer.token("ro", tenant, "read_only"),
                "{\"product\": \"fixhttp\", \"seed_target\": \"plan-seed\"}", Map.of()).status())
                .as("the route's guard").isEqualTo(403);
        var missing = kernel.send("POST", "/api/v1/targets/discover", operator,
                "{\"product\": \"fixhttp\", \"seed_target\": \"no-such-seed\"}", Map.of());
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.json().path("error").asText()).isEqualTo("target_not_found");

        CliRunner.Result yaml = kernel.cli(operator).run("targets", "discover", "fixhttp", "--seed-target", "plan-seed");
        assertThat(yaml.exitCode()).as(yaml.toString()).isZero();
        assertThat(yaml.out()).contains("# seed target: plan-seed (product fixhttp, through connector fixhttp-1.x)")
                .contains("# already_registered: registered as target known-b").contains("#   - name: \"node-b\"");
        CliRunner admins = kernel.cli(admin);
        var dryRun = admins.run("targets", "import", admins.file("plan.yaml", yaml.out()).toString(), "--dry-run");
        assertThat(dryRun.exitCode()).as(dryRun.toString()).isZero();
        assertThat(dryRun.out()).contains("would create 1").contains("node-a-2");
        assertThat(kernel.send("GET", "/api/v1/targets/node-a-2", operator, null, Map.of()).status())
                .as("nothing registered").isEqualTo(404);
        var imported = admins.run("targets", "import", admins.file("plan.yaml", yaml.out()).toString());
        assertThat(imported.exitCode()).as(imported.toString()).isZero();
        JsonNode registered = kernel.get("/api/v1/targets/node-a-2", operator).json();
        assertThat(registered.path("port").asInt()).isEqualTo(7001);
        assertThat(registered.path("verify_tls").asBoolean()).isFalse();
    }

    /** Security review D6: probes and discovery use the target's credential, so each writes an audit row. */
    @Test
    void probesAndDiscoveryAreAudited() throws Exception {
        register("audited", "fixhttp", Map.of("verify_tls", false));
        stage("audited", PASSWORD);
        probe("audited");
        register("audited-bad", "fixhttp", Map.of("verify_tls", false));
        stage("audited-bad", "wrong-" + PASSWORD);
        probe("audited-bad");
        kernel.send("POST", "/api/v1/targets/audited-nosecret/probe", operator, null, Map.of());
        register("audited-nosecret", "fixhttp", Map.of("verify_tls", false));
        assertThat(kernel.send("POST", "/api/v1/targets/audited-nosecret/probe", operator, null, Map.of()).status())
                .isEqualTo(502);
        kernel.send("POST", "/api/v1/targets/discover", operator, "{\"product\": \"fixhttp\", \"seed_target\": "
                + "\"audited\"}", Map.of());
        var jdbc = new dev.backplane.kernel.persistence.Jdbc(kernel.kernel().database().dataSource());
        var rows = jdbc.query("SELECT op_id || ' ' || target || ' ' || result_status || ' ' || coalesce(error_code, '-') "
                + "|| ' ' || op_class || ' ' || principal FROM audit_rows WHERE tenant_id = ? AND op_id LIKE 'svc.targets.%' "
                + "ORDER BY occurred_at", r -> r.getString(1), tenant);
        assertThat(rows).containsExactly(
                "svc.targets.probe audited ok - credential_read op",
                "svc.targets.probe audited-bad error connector_auth_failed credential_read op",
                "svc.targets.probe audited-nosecret error connector_error credential_read op",
                "svc.targets.discover audited ok - credential_read op");
        assertThat(jdbc.query("SELECT count(*) FROM audit_rows WHERE tenant_id = ? AND extras::text LIKE ?",
                r -> r.getLong(1), tenant, "%" + PASSWORD + "%")).containsExactly(0L);
    }

    @Test
    void anotherTenantCannotProbeTheseTargets() throws Exception {
        register("private-one", "fixhttp", Map.of("verify_tls", false));
        String other = issuer.token("x", UUID.randomUUID(), "tenant_admin");
        assertThat(kernel.send("POST", "/api/v1/targets/private-one/probe", other, null, Map.of()).status()).isEqualTo(404);
    }

    @Test
    void theCliProbesAndDiscovers() throws Exception {
        register("cli-t", "fixhttp", Map.of("verify_tls", false));
        stage("cli-t", PASSWORD);
        CliRunner cli = kernel.cli(operator);
        CliRunner.Result probed = cli.run("targets", "probe", "cli-t");
        assertThat(probed.exitCode()).as(probed.toString()).isZero();
        assertThat(probed.out()).contains("reachable", "3.2.1", "fixhttp-1.x");
        CliRunner.Result discovered = cli.run("targets", "discover", "fixhttp", "--seed-target", "cli-t");
        assertThat(discovered.out()).contains("node-a", "node-b");
    }
}
