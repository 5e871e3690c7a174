package dev.backplane.plugins.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TestKernel;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code svc targets discover k8s} through the built plugin jar and a real kernel against the fabric8 mock
 * cluster over TLS: the cluster's nodes come back as a plan, its control-plane nodes importable (the seed's
 * port and TLS name, the kubelet version as version hint), the workers listed without a product, the seed's own
 * API server and a node the SSRF guard refuses listed with their reason; the route's role guard and the audit
 * row hold; the CLI's targets.yaml passes {@code svc targets import --dry-run}; a refusing API server is a clear
 * error code, never a 500.
 */
class K8sDiscoveryIT extends PerTestTenant {

    private static MockCluster cluster;
    private static MockCluster forbidding;

    @BeforeKernel
    static void start(KernelSetup setup) throws Exception {
        cluster = setup.closeAfter(new MockCluster().seed(0));
        forbidding = setup.closeAfter(new MockCluster());
        forbidding.server().expect().get().withPath("/api/v1/nodes").andReturn(403, "{\"kind\":\"Status\","
                + "\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"nodes is forbidden: User \\\"reader\\\" "
                + "cannot list resource \\\"nodes\\\"\",\"reason\":\"Forbidden\",\"code\":403}").always();
        setup.pluginJar("k8s.plugin.jar", "k8s-1.x.jar");
        // the mock's nodes sit in 10.0.0.0/24, which this deploy allows; 172.16.0.0/12 it does not
        setup.setting("SVC_TARGET_SSRF_ALLOWLIST", "127.0.0.0/8,10.0.0.0/24");
        // the seed's own API server (it answers at 127.0.0.1) and a control-plane node out of the allowed ranges
        cluster.admin().nodes().resource(controlPlane("cp-self", "127.0.0.1", null)).create();
        cluster.admin().nodes().resource(controlPlane("cp-far", "172.16.5.4", "203.0.113.9")).create();
    }

    private static io.fabric8.kubernetes.api.model.Node controlPlane(String name, String internal, String external) {
        var b = new NodeBuilder().withNewMetadata().withName(name).addToLabels("node-role.kubernetes.io/control-plane", "true")
                .addToLabels("node-role.kubernetes.io/master", "true").endMetadata().withNewStatus()
                .addNewAddress().withType("InternalIP").withAddress(internal).endAddress();
        if (external != null) {
            b = b.addNewAddress().withType("ExternalIP").withAddress(external).endAddress();
        }
        return b.withNewNodeInfo().withKubeletVersion("v1.31.4+k3s1").endNodeInfo().endStatus().build();
    }

    private void seed(String name, MockCluster c) {
        kernel.registerTarget(admin, Map.of("name", name, "product", "k8s", "host", "127.0.0.1", "port", c.port(),
                "tls_server_name", "localhost"));
        kernel.stageSecret(admin, name, Map.of("kubeconfig", c.kubeconfig(MockCluster.TOKEN)));
    }

    private TestKernel.Response discover(String token, String seed) {
        var r = kernel.send("POST", "/api/v1/targets/discover", token, "{\"product\": \"k8s\", \"seed_target\": \""
                + seed + "\"}", Map.of());
        assertThat(r.body()).doesNotContain(MockCluster.TOKEN);
        return r;
    }

    private static List<String> skipped(JsonNode plan) {
        List<String> out = new ArrayList<>();
        plan.path("skipped").forEach(s -> out.add(s.path("candidate").path("name").asText() + " "
                + s.path("reason").asText()));
        return out;
    }

    @Test
    void theClustersControlPlaneNodesAreAPlanImportTakes() throws Exception {
        seed("c1", cluster);
        var r = discover(operator, "c1");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        JsonNode plan = r.json();
        assertThat(plan.path("connector_id").asText()).isEqualTo("k8s-1.x");
        assertThat(plan.path("candidates")).hasSize(1);
        JsonNode node1 = plan.path("candidates").get(0);
        assertThat(node1.path("name").asText()).isEqualTo("c1-node-1");
        assertThat(node1.path("product").asText()).isEqualTo("k8s");
        assertThat(node1.path("host").asText()).isEqualTo("10.0.0.1");
        assertThat(node1.path("port").asInt()).as("the seed's port").isEqualTo(cluster.port());
        assertThat(node1.path("version").asText()).as("the kubelet's, without the v").isEqualTo("1.31.4+k3s1");
        assertThat(node1.path("tls_server_name").asText()).isEqualTo("localhost");
        assertThat(node1.path("notes").asText()).contains("control-plane").contains("InternalIP 10.0.0.1");
        assertThat(skipped(plan)).containsExactlyInAnyOrder("c1-node-2 no_product", "c1-cp-self seed_target",
                "c1-cp-far ssrf_refused");
        JsonNode far = plan.path("skipped").findParents("reason").stream()
                .filter(s -> s.path("reason").asText().equals("ssrf_refused")).findFirst().orElseThrow();
        assertThat(far.path("candidate").path("host").asText()).as("InternalIP first").isEqualTo("172.16.5.4");
        assertThat(far.path("candidate").path("notes").asText()).contains("ExternalIP 203.0.113.9");

        // the guard and the audit row
        assertThat(kernel.send("POST", "/api/v1/targets/discover", issuer.token("ro-" + tenant, tenant, "read_only"),
                "{\"product\": \"k8s\", \"seed_target\": \"c1\"}", Map.of()).status()).isEqualTo(403);
        assertThat(kernel.jdbc().query("SELECT op_id || ' ' || target || ' ' || result_status || ' ' || op_class "
                + "FROM audit_rows WHERE tenant_id = ? AND op_id = 'svc.targets.discover'", rs -> rs.getString(1), tenant))
                .containsExactly("svc.targets.discover c1 ok credential_read");

        // the CLI's plan, checked by import --dry-run; nothing registered
        CliRunner.Result yaml = kernel.cli(operator).run("targets", "discover", "k8s", "--seed-target", "c1");
        assertThat(yaml.exitCode()).as(yaml.toString()).isZero();
        assertThat(yaml.out()).contains("# seed target: c1 (product k8s, through connector k8s-1.x)")
                .contains("# no_product: ").contains("# seed_target: this is the seed target c1 itself")
                .doesNotContain(MockCluster.TOKEN);
        CliRunner admins = kernel.cli(admin);
        var dryRun = admins.run("targets", "import", admins.file("k8s-plan.yaml", yaml.out()).toString(), "--dry-run");
        assertThat(dryRun.exitCode()).as(dryRun.toString()).isZero();
        assertThat(dryRun.out()).contains("would create 1 [c1-node-1]");
        assertThat(kernel.get("/api/v1/targets/c1-node-1", operator).status()).isEqualTo(404);
    }

    @Test
    void aRefusingApiServerIsAClearErrorAndTheRowSaysSo() {
        seed("locked", forbidding);
        var r = discover(operator, "locked");
        assertThat(r.status()).isEqualTo(502);
        assertThat(r.json().path("error").asText()).isEqualTo("connector_error");
        assertThat(r.json().path("message").asText()).contains("403").contains("nodes is forbidden");
        assertThat(kernel.jdbc().query("SELECT result_status || ' ' || error_code FROM audit_rows WHERE tenant_id = ? "
                + "AND op_id = 'svc.targets.discover'", rs -> rs.getString(1), tenant))
                .containsExactly("error connector_error");

        kernel.registerTarget(admin, Map.of("name", "wrong-token", "product", "k8s", "host", "127.0.0.1", "port",
                cluster.port(), "tls_server_name", "localhost"));
        kernel.stageSecret(admin, "wrong-token", Map.of("kubeconfig", cluster.kubeconfig("not-the-token")));
        var refused = discover(operator, "wrong-token");
        assertThat(refused.status()).isEqualTo(502);
        assertThat(refused.json().path("error").asText()).isEqualTo("connector_auth_failed");

        var noSeed = discover(operator, "no-such-cluster");
        assertThat(noSeed.status()).isEqualTo(404);
        assertThat(noSeed.json().path("error").asText()).isEqualTo("target_not_found");
    }
}
