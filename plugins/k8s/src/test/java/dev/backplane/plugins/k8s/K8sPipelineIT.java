package dev.backplane.plugins.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.OperationCalls;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TlsFixture;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The built plugin jar (the one plugin-repo/ gets) loaded by a real kernel, driving the mock cluster
 * over TLS through the whole pipeline: gate, credentials, egress proxy, reduction, approvals, audit.
 */
class K8sPipelineIT extends PerTestTenant {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static MockCluster cluster;
    private static TlsFixture otherCa;
    private final OperationCalls calls = new OperationCalls(kernel, "k8s-1.x", MockCluster.TOKEN);

    @BeforeKernel
    static void start(KernelSetup setup) throws Exception {
        cluster = setup.closeAfter(new MockCluster().seed(120));
        setup.pluginJar("k8s.plugin.jar", "k8s-1.x.jar");
        otherCa = setup.closeAfter(TlsFixture.start(setup.work(), "x", "y"));
    }

    private void target(String name, String host, Map<String, Object> extra, String token) {
        Map<String, Object> body = new HashMap<>(Map.of("name", name, "product", "k8s", "host", host,
                "port", cluster.port()));
        body.putAll(extra);
        kernel.registerTarget(admin, body);
        kernel.stageSecret(admin, name, Map.of("kubeconfig", cluster.kubeconfig(token)));
    }

    private void enable() {
        kernel.enableConnector(admin, "k8s-1.x");
    }

    @Test
    void everyReadOperationWorksThroughThePipeline() throws Exception {
        target("c1", "localhost", Map.of(), MockCluster.TOKEN);
        enable();
        JsonNode about = calls.call(operator, "k8s.about", "c1", Map.of());
        assertThat(about.path("status").asText()).as(about.toString()).isEqualTo("ok");
        assertThat(about.path("result").path("git_version").asText()).isEqualTo("v1.31.4+k3s1");
        assertThat(about.path("result").path("distribution").asText()).isEqualTo("k3s");

        assertThat(calls.call(operator, "k8s.namespace.list", "c1", Map.of()).path("result").findValuesAsText("name"))
                .contains("default", "shop");
        JsonNode nodes = calls.call(operator, "k8s.node.list", "c1", Map.of()).path("result");
        assertThat(nodes.findValuesAsText("roles")).containsExactlyInAnyOrder("control-plane", "worker");
        assertThat(nodes.get(0).path("ready").asBoolean()).isTrue();

        JsonNode pods = calls.call(operator, "k8s.pod.list", "c1", Map.of("namespace", "shop", "label_selector",
                "app=web"));
        assertThat(pods.path("status").asText()).as(pods.toString()).isEqualTo("ok");
        assertThat(pods.path("result").findValuesAsText("name")).containsExactlyInAnyOrder("web-0", "web-2");
        assertThat(pods.path("result").get(0).path("ready").asText()).isEqualTo("1/1");

        JsonNode page = calls.call(operator, "k8s.pod.list", "c1", Map.of("namespace", "default", "limit", 1));
        assertThat(page.path("result").size()).isEqualTo(1);
        assertThat(page.path("extras").path("continue_token").asText()).isEqualTo("page-2-token");

        JsonNode byField = calls.call(operator, "k8s.pod.list", "c1", Map.of("all_namespaces", true,
                "field_selector", "metadata.name=web-1"));
        assertThat(byField.path("result").findValuesAsText("name")).containsExactly("web-1");

        JsonNode info = calls.call(operator, "k8s.pod.info", "c1", Map.of("namespace", "shop", "name", "web-0"));
        assertThat(info.path("result").path("spec").path("nodeName").asText()).isEqualTo("node-1");
        assertThat(info.path("result").path("metadata").has("managedFields")).isFalse();
        JsonNode missing = calls.call(operator, "k8s.pod.info", "c1", Map.of("namespace", "shop", "name", "nope"));
        assertThat(missing.path("status").asText()).isEqualTo("error");
        assertThat(missing.path("extras").path("status").asInt()).isEqualTo(404);

        JsonNode logs = calls.call(operator, "k8s.logs", "c1", Map.of("namespace", "shop", "name", "web-0"));
        assertThat(logs.path("result").path("lines").toString()).isEqualTo("[\"line one\",\"line two\"]");
        assertThat(calls.call(operator, "k8s.logs", "c1", Map.of("namespace", "shop", "name", "web-0", "tail", 1))
                .path("result").path("lines").size()).isEqualTo(1);
        assertThat(calls.call(operator, "k8s.logs", "c1", Map.of("namespace", "shop", "name", "web-0", "tail", 5001))
                .path("extras").path("error_code").asText()).as("tail is capped at 5000").isEqualTo("invalid_params");

        JsonNode deployments = calls.call(operator, "k8s.deployment.list", "c1", Map.of("all_namespaces", true));
        assertThat(deployments.path("result").get(0).path("ready_replicas").asInt()).isEqualTo(2);
        assertThat(calls.call(operator, "k8s.deployment.info", "c1", Map.of("namespace", "shop", "name", "web"))
                .path("result").path("spec").path("selector").path("matchLabels").path("app").asText()).isEqualTo("web");
        JsonNode events = calls.call(operator, "k8s.event.list", "c1", Map.of("namespace", "shop"));
        assertThat(events.path("result").get(0).path("reason").asText()).isEqualTo("BackOff");
        assertThat(calls.call(operator, "k8s.event.list", "c1", Map.of("namespace", "shop", "limit", 501))
                .path("extras").path("error_code").asText()).as("events are capped at 500").isEqualTo("invalid_params");
        assertThat(calls.call(operator, "k8s.ingress.list", "c1", Map.of("namespace", "shop")).path("result").get(0)
                .path("hosts").asText()).isEqualTo("shop.example.com");
        JsonNode services = calls.call(operator, "k8s.service.list", "c1", Map.of("all_namespaces",
                true)).path("result");
        assertThat(services.get(0).size()).as("key names only").isEqualTo(2);
        assertThat(calls.call(operator, "k8s.service.info", "c1", Map.of("namespace", "shop", "name",
                "web")).path("result")
                .path("spec").path("type").asText()).isEqualTo("ClusterIP");
        JsonNode ls = calls.call(operator, "k8s.ls", "c1", Map.of("path", "shop")).path("result");
        assertThat(ls.findValuesAsText("name")).containsExactly("pods", "deployments", "services", "ingresses", "events");
        assertThat(calls.call(operator, "k8s.ls", "c1", Map.of("path", "shop/deployments")).path("result")
                .findValuesAsText("name")).containsExactly("web");

        calls.probe(operator, "c1", "SUSE Rancher", "k3s", "1\\.31\\.4\\+k3s1", "GET /version");
    }

    @Test
    void theCliBuildsK8sVerbsFromTheCatalog() throws Exception {
        target("cli1", "localhost", Map.of(), MockCluster.TOKEN);
        enable();
        Path home = TempDirs.create("svc-cli");
        dev.backplane.kernel.testing.CliRunner cli = kernel.cli(home, operator);
        var pods = cli.run("k8s", "pod", "list", "--namespace", "shop", "--label-selector", "app=web", "--target", "cli1");
        assertThat(pods.exitCode()).as(pods.toString()).isZero();
        assertThat(pods.out()).contains("NAME").contains("PHASE").contains("web-0").contains("Running");
        assertThat(home.resolve("svc")).as("the catalog is cached next to the config").exists();

        var logs = cli.run("k8s", "logs", "web-0", "--namespace", "shop", "--tail", "1", "--target", "cli1");
        assertThat(logs.out().strip()).as(logs.toString()).isEqualTo("line two");
        var json = cli.run("k8s", "about", "--target", "cli1", "--json");
        assertThat(JSON.readTree(json.out()).path("result").path("git_version").asText()).isEqualTo("v1.31.4+k3s1");
        assertThat(JSON.readTree(json.out()).has("extras")).as("--json prints the full envelope").isTrue();
        var ls = cli.run("k8s", "ls", "shop/services", "--target", "cli1");
        assertThat(ls.out()).contains("shop/services/web");

        var both = cli.run("k8s", "pod", "list", "--namespace", "shop", "--all-namespaces", "--target", "cli1");
        assertThat(both.exitCode()).as("the schema rule reaches the CLI as invalid_params").isEqualTo(1);
        assertThat(both.out()).contains("invalid_params");
        var badLimit = cli.run("k8s", "pod", "list", "--all-namespaces", "--limit", "x", "--target", "cli1");
        assertThat(badLimit.exitCode()).isEqualTo(2);

        var denied = cli.run("k8s", "deployment", "scale", "web", "--namespace", "shop", "--replicas", "3",
                "--target", "cli1");
        assertThat(denied.exitCode()).as("writes are default-deny until reviewed").isEqualTo(3);
        assertThat(kernel.send("PATCH", "/api/v1/connectors/k8s-1.x/operations/k8s.deployment.scale", admin,
                "{\"is_enabled\": true}", Map.of()).status()).isEqualTo(200);
        var scale = cli.run("k8s", "deployment", "scale", "web", "--namespace", "shop", "--replicas", "3",
                "--target", "cli1");
        assertThat(scale.exitCode()).as(scale.toString()).isEqualTo(4);
        assertThat(scale.out()).contains("parked for approval");

        var help = cli.run("k8s", "--help");
        assertThat(help.out()).contains("pod").contains("deployment").contains("logs").contains("operation");
        var verbHelp = cli.run("k8s", "pod", "list", "--help");
        assertThat(verbHelp.out()).contains("--all-namespaces").contains("--label-selector").contains("--continue-token")
                .contains("--target");
        var search = cli.run("k8s", "operation", "search", "logs");
        assertThat(search.exitCode()).as(search.toString()).isZero();
        assertThat(search.out()).contains("k8s.logs");
        var unknown = cli.run("nosuchfamily", "thing", "list");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err()).contains("nosuchfamily");
    }

    @Test
    void listsNeedExactlyOneOfNamespaceOrAllNamespaces() throws Exception {
        target("v1", "localhost", Map.of(), MockCluster.TOKEN);
        enable();
        for (Map<String, Object> bad : List.<Map<String, Object>>of(Map.of(), Map.of("namespace", "shop",
                "all_namespaces", true), Map.of("all_namespaces", false), Map.of("namespace", "shop", "limit", 0))) {
            JsonNode r = calls.call(operator, "k8s.pod.list", "v1", bad);
            assertThat(r.path("status").asText()).as(bad.toString()).isEqualTo("error");
            assertThat(r.path("extras").path("error_code").asText()).isEqualTo("invalid_params");
            assertThat(r.path("extras").path("validation_errors").size()).isPositive();
        }
    }

    @Test
    void tlsFollowsTheTargetsPinServerNameAndVerifySettings() throws Exception {
        enable();
        target("by-ip", "127.0.0.1", Map.of(), MockCluster.TOKEN);
        JsonNode mismatch = calls.call(operator, "k8s.about", "by-ip", Map.of());
        assertThat(mismatch.path("status").asText()).isEqualTo("error");
        assertThat(mismatch.path("extras").path("error_code").asText()).isEqualTo("connector_tls_verify_failed");
        assertThat(mismatch.path("extras").path("exception_message").asText()).isNotBlank();
        assertThat(kernel.send("PATCH", "/api/v1/targets/by-ip", admin, "{\"tls_server_name\": \"localhost\"}", Map.of())
                .status()).isEqualTo(200);
        assertThat(calls.call(operator, "k8s.about", "by-ip", Map.of()).path("status").asText())
                .as("an IP host whose certificate names a DNS name works once tls_server_name is set").isEqualTo("ok");

        target("pinned", "localhost", Map.of("tls_ca_pin", cluster.certificatePem()), MockCluster.TOKEN);
        assertThat(calls.call(operator, "k8s.about", "pinned", Map.of()).path("status").asText()).isEqualTo("ok");
        target("wrong-pin", "localhost", Map.of("tls_ca_pin", otherCa.pem()), MockCluster.TOKEN);
        JsonNode wrongPin = calls.call(operator, "k8s.about", "wrong-pin", Map.of());
        assertThat(wrongPin.path("extras").path("error_code").asText()).as("a pin wins over the kubeconfig's CA")
                .isEqualTo("connector_tls_verify_failed");
        target("unverified", "127.0.0.1", Map.of("verify_tls", false), MockCluster.TOKEN);
        assertThat(calls.call(operator, "k8s.about", "unverified", Map.of()).path("status").asText()).isEqualTo("ok");
    }

    @Test
    void aRejectedTokenIsConnectorAuthFailed() throws Exception {
        target("bad-token", "localhost", Map.of(), "not-the-token-42");
        enable();
        JsonNode r = calls.call(operator, "k8s.pod.list", "bad-token", Map.of("namespace", "shop"));
        assertThat(r.path("status").asText()).isEqualTo("error");
        assertThat(r.path("extras").path("error_code").asText()).isEqualTo("connector_auth_failed");
        assertThat(r.toString()).doesNotContain("not-the-token-42");
        var probe = kernel.send("POST", "/api/v1/targets/bad-token/probe", operator, null, Map.of());
        assertThat(probe.json().toString()).contains("connector_auth_failed").doesNotContain("not-the-token-42");
    }

    @Test
    void aBigPodListIsReducedAndQueryable() throws Exception {
        target("big", "localhost", Map.of(), MockCluster.TOKEN);
        enable();
        JsonNode r = calls.call(operator, "k8s.pod.list", "big", Map.of("all_namespaces", true, "label_selector",
                "app=batch"));
        assertThat(r.path("status").asText()).isEqualTo("ok");
        assertThat(r.path("extras").path("total_rows").asInt()).isEqualTo(120);
        JsonNode drill = r.path("extras").path("fetch_more").path("drill_in");
        assertThat(drill.path("available").asBoolean()).isTrue();
        var grouped = kernel.send("POST", "/api/v1/operations/result-query", operator, "{\"handle_id\": \""
                + drill.path("handle_id").asText() + "\", \"query\": {\"where\": [{\"field\": \"phase\", \"op\": \"=\", "
                + "\"value\": \"Running\"}], \"group_by\": [\"namespace\"], \"aggregates\": [{\"fn\": \"COUNT\"}], "
                + "\"order_by\": [{\"field\": \"namespace\"}]}}", Map.of());
        assertThat(grouped.status()).as(grouped.body()).isEqualTo(200);
        assertThat(grouped.json().path("rows").size()).isEqualTo(2);
        assertThat(grouped.json().path("rows").toString()).contains("shop").contains("default").contains("60");
    }

    @Test
    void writesParkForApprovalAndRunWhenASecondAdminApproves() throws Exception {
        target("w1", "localhost", Map.of(), MockCluster.TOKEN);
        enable();
        for (String op : List.of("k8s.deployment.scale", "k8s.deployment.restart", "k8s.pod.delete")) {
            assertThat(kernel.send("PATCH", "/api/v1/connectors/k8s-1.x/operations/" + op, admin,
                    "{\"is_enabled\": true}", Map.of()).status()).isEqualTo(200);
        }
        JsonNode parked = calls.call(admin, "k8s.deployment.scale", "w1", Map.of("namespace", "shop", "name", "web",
                "replicas", 5), Map.of("work_ref", "CHG-42"));
        assertThat(parked.path("status").asText()).as(parked.toString()).isEqualTo("awaiting_approval");
        String id = parked.path("extras").path("approval_request_id").asText();
        assertThat(cluster.admin().apps().deployments().inNamespace("shop").withName("web").get().getSpec()
                .getReplicas()).as("nothing sent while parked").isEqualTo(2);
        assertThat(kernel.send("POST", "/api/v1/approvals/" + id + "/approve", admin, "{}", Map.of()).status())
                .as("four eyes").isEqualTo(403);
        var approved = kernel.send("POST", "/api/v1/approvals/" + id + "/approve", admin2, "{\"reason\": \"ok\"}", Map.of());
        assertThat(approved.status()).as(approved.body()).isEqualTo(200);
        assertThat(approved.json().path("result").path("status").asText()).isEqualTo("ok");
        assertThat(approved.json().path("result").path("result").path("replicas").asInt()).isEqualTo(5);
        assertThat(cluster.admin().apps().deployments().inNamespace("shop").withName("web").get().getSpec()
                .getReplicas()).isEqualTo(5);

        JsonNode restart = calls.call(operator, "k8s.deployment.restart", "w1", Map.of("namespace", "shop", "name",
                "web"));
        assertThat(restart.path("status").asText()).isEqualTo("awaiting_approval");
        var restarted = kernel.send("POST", "/api/v1/approvals/" + restart.path("extras").path("approval_request_id")
                .asText() + "/approve", admin, "{}", Map.of());
        assertThat(restarted.json().path("result").path("status").asText()).as(restarted.body()).isEqualTo("ok");
        assertThat(cluster.admin().apps().deployments().inNamespace("shop").withName("web").get().getSpec().getTemplate()
                .getMetadata().getAnnotations()).containsKey("kubectl.kubernetes.io/restartedAt");

        cluster.admin().pods().inNamespace("shop").resource(new io.fabric8.kubernetes.api.model.PodBuilder()
                .withNewMetadata().withName("doomed").withNamespace("shop").addToLabels("app", "doomed").endMetadata()
                .build()).create();
        Map<String, Object> doomed = Map.of("namespace", "shop", "name", "doomed");
        JsonNode preview = calls.previewRequired(operator, "k8s.pod.delete", "w1", doomed);
        assertThat(preview.path("path").asText()).isEqualTo("/api/v1/namespaces/shop/pods/doomed");
        JsonNode delete = calls.call(operator, "k8s.pod.delete", "w1", doomed, preview);
        assertThat(delete.path("status").asText()).isEqualTo("awaiting_approval");
        var released = kernel.send("POST", "/api/v1/approvals/" + delete.path("extras").path("approval_request_id")
                .asText() + "/approve", admin, "{}", Map.of());
        assertThat(released.json().path("result").path("status").asText()).as(released.body()).isEqualTo("ok");
        assertThat(cluster.admin().pods().inNamespace("shop").withName("doomed").get()).isNull();

        var audit = kernel.get("/api/v1/audit?target=w1&limit=100", admin);
        assertThat(audit.status()).as(audit.body()).isEqualTo(200);
        assertThat(audit.body()).contains("k8s.deployment.scale").contains("k8s.pod.delete").contains("CHG-42")
                .doesNotContain(MockCluster.TOKEN);
    }
}
