package dev.backplane.plugins.prometheus;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TestKernel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code svc targets discover prometheus} through the built plugin jar and a real kernel, against a real
 * Prometheus (TLS, HTTP Basic) that scrapes itself, a real Alertmanager and four targets nobody answers: one
 * candidate per active scrape target, its product guessed from the job; the Prometheus itself is the seed, the
 * Alertmanager is importable, an unknown job and a node exporter are listed without a product, a Loki (this
 * kernel loads no Loki connector) and a Prometheus at an address the SSRF guard refuses are listed with the
 * import's reason. The route's guard and audit row hold, the CLI's
 * targets.yaml passes {@code import --dry-run}, and a refused credential or an Alertmanager seed (whose session
 * offers no discovery) are clear answers, never a 500.
 */
class PrometheusDiscoveryIT extends PerTestTenant {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static PromServers servers;

    @BeforeKernel
    static void start(KernelSetup setup) throws Exception {
        setup.pluginJar("prometheus.plugin.jar", "prometheus-2.x.jar");
        if (!PromServers.installed()) {
            return; // every test skips (needsTheServers)
        }
        servers = setup.closeAfter(PromServers.start(setup.work().resolve("prom"), true, true));
        PromServers.await("the Alertmanager scraped", () -> body("/api/v1/targets").contains("\"health\":\"up\"")
                && alertmanagerUp());
    }

    private static boolean alertmanagerUp() {
        try {
            for (JsonNode t : JSON.readTree(body("/api/v1/targets")).path("data").path("activeTargets")) {
                if (t.path("labels").path("job").asText().equals("alertmanager")) {
                    return t.path("health").asText().equals("up");
                }
            }
        } catch (Exception e) {
            return false;
        }
        return false;
    }

    private static String body(String path) {
        try {
            return servers.get(servers.prometheusPort(), path);
        } catch (Exception e) {
            return "";
        }
    }

    @BeforeEach
    void needsTheServers() {
        Assumptions.assumeTrue(PromServers.installed(), PromServers.NOT_INSTALLED);
    }

    private void target(String name, String product, int port, String password) {
        kernel.registerTarget(admin, Map.of("name", name, "product", product, "host", "localhost", "port", port,
                "tls_ca_pin", servers.certificatePem()));
        kernel.stageSecret(admin, name, Map.of("username", PromServers.USER, "password", password));
    }

    private TestKernel.Response discover(String token, String product, String seed) {
        var r = kernel.send("POST", "/api/v1/targets/discover", token, "{\"product\": \"" + product
                + "\", \"seed_target\": \"" + seed + "\"}", Map.of());
        assertThat(r.body()).doesNotContain(PromServers.PASSWORD);
        return r;
    }

    private static List<String> skipped(JsonNode plan) {
        List<String> out = new ArrayList<>();
        plan.path("skipped").forEach(s -> out.add(s.path("candidate").path("name").asText() + " "
                + s.path("candidate").path("product").asText("-") + " " + s.path("reason").asText()));
        return out;
    }

    @Test
    void theScrapeTargetsAreAPlanWithAProductGuessPerJob() throws Exception {
        target("prom", "prometheus", servers.prometheusPort(), PromServers.PASSWORD);
        var r = discover(operator, "prometheus", "prom");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        JsonNode plan = r.json();
        assertThat(plan.path("connector_id").asText()).isEqualTo("prometheus-2.x");
        assertThat(plan.path("candidates")).as(plan.toString()).hasSize(1);
        JsonNode am = plan.path("candidates").get(0);
        assertThat(am.path("name").asText()).isEqualTo("alertmanager-localhost");
        assertThat(am.path("product").asText()).isEqualTo("alertmanager");
        assertThat(am.path("host").asText()).isEqualTo("localhost");
        assertThat(am.path("port").asInt()).isEqualTo(servers.alertmanagerPort());
        assertThat(am.has("extras")).as("scraped over https: no scheme override").isFalse();
        assertThat(am.path("notes").asText()).contains("job 'alertmanager'").contains("health up")
                .contains("guessed from the job name");
        assertThat(skipped(plan)).containsExactlyInAnyOrder("prometheus-localhost prometheus seed_target",
                "dead-127-0-0-1 - no_product", "node-127-0-0-1 - no_product",
                "loki-192-0-2-10 loki unknown_product", // a guess this deploy serves no connector for
                "prometheus-k8s-192-0-2-11 prometheus ssrf_refused");
        JsonNode node = plan.path("skipped").findParents("reason").stream()
                .filter(s -> s.path("candidate").path("name").asText().equals("node-127-0-0-1")).findFirst().orElseThrow();
        assertThat(node.path("candidate").path("notes").asText()).contains("node_exporter");
        assertThat(node.path("candidate").path("extras").path("scheme").asText()).isEqualTo("http");

        // the guard and the audit row
        assertThat(kernel.send("POST", "/api/v1/targets/discover", issuer.token("ro-" + tenant, tenant, "read_only"),
                "{\"product\": \"prometheus\", \"seed_target\": \"prom\"}", Map.of()).status()).isEqualTo(403);
        assertThat(kernel.jdbc().query("SELECT op_id || ' ' || target || ' ' || result_status || ' ' || op_class "
                + "FROM audit_rows WHERE tenant_id = ? AND op_id = 'svc.targets.discover'", rs -> rs.getString(1), tenant))
                .containsExactly("svc.targets.discover prom ok credential_read");

        // the CLI's plan, checked by import --dry-run; nothing registered
        CliRunner.Result yaml = kernel.cli(operator).run("targets", "discover", "prometheus", "--seed-target", "prom");
        assertThat(yaml.exitCode()).as(yaml.toString()).isZero();
        assertThat(yaml.out()).contains("# seed target: prom (product prometheus, through connector prometheus-2.x)")
                .contains("# ssrf_refused: ").doesNotContain(PromServers.PASSWORD);
        CliRunner admins = kernel.cli(admin);
        var dryRun = admins.run("targets", "import", admins.file("prom-plan.yaml", yaml.out()).toString(), "--dry-run");
        assertThat(dryRun.exitCode()).as(dryRun.toString()).isZero();
        assertThat(dryRun.out()).contains("would create 1 [alertmanager-localhost]");
        assertThat(kernel.get("/api/v1/targets/alertmanager-localhost", operator).status()).isEqualTo(404);
    }

    @Test
    void aRefusedCredentialIsAClearCodeAndAnAlertmanagerSeedHasNoDiscovery() {
        target("prom-bad", "prometheus", servers.prometheusPort(), "not-" + PromServers.PASSWORD);
        var refused = discover(operator, "prometheus", "prom-bad");
        assertThat(refused.status()).isEqualTo(502);
        assertThat(refused.json().path("error").asText()).isEqualTo("connector_auth_failed");
        assertThat(kernel.jdbc().query("SELECT result_status || ' ' || error_code FROM audit_rows WHERE tenant_id = ? "
                + "AND op_id = 'svc.targets.discover'", rs -> rs.getString(1), tenant))
                .containsExactly("error connector_auth_failed");

        target("am", "alertmanager", servers.alertmanagerPort(), PromServers.PASSWORD);
        var unsupported = discover(operator, "alertmanager", "am");
        assertThat(unsupported.status()).isEqualTo(501);
        assertThat(unsupported.json().path("error").asText()).isEqualTo("discover_not_supported");

        var mismatch = discover(operator, "prometheus", "am");
        assertThat(mismatch.status()).isEqualTo(422);
        assertThat(mismatch.json().path("error").asText()).isEqualTo("seed_target_mismatch");
    }
}
