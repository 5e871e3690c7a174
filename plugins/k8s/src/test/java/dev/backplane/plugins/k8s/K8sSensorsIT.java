package dev.backplane.plugins.k8s;

import static dev.backplane.kernel.sensors.SensorsIT.ok;
import static dev.backplane.kernel.sensors.SensorsIT.poll;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.PerTestTenant;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Sensors on the built Kubernetes plugin against the mock cluster over TLS: each run is the sensor's
 * service principal calling a k8s read through the whole pipeline, and the assertion reads the reduced
 * rows the connector answers; a write operation cannot be a sensor.
 */
class K8sSensorsIT extends PerTestTenant {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static MockCluster cluster;

    @BeforeKernel
    static void start(KernelSetup setup) throws Exception {
        cluster = setup.closeAfter(new MockCluster().seed(0));
        setup.pluginJar("k8s.plugin.jar", "k8s-1.x.jar");
    }

    private String sensor(String name, String op, Map<String, Object> params, String assertion) throws Exception {
        return ok(kernel.post("/api/v1/sensors", admin, Map.of("name", name, "connector_id", "k8s-1.x", "op_id", op,
                "target", "c1", "params", params, "interval_seconds", 5, "assertion", JSON.readTree(assertion))), 201)
                .path("id").asText();
    }

    private JsonNode firstResult(String id) {
        return poll(() -> ok(kernel.get("/api/v1/sensors/" + id + "/results", admin), 200).path("results"),
                r -> !r.isEmpty(), Duration.ofSeconds(60), "a result of " + id).get(0);
    }

    @Test
    void sensorsJudgeTheClusterThroughThePipeline() throws Exception {
        kernel.registerTarget(admin, Map.of("name", "c1", "product", "k8s", "host", "localhost", "port", cluster.port()));
        kernel.stageSecret(admin, "c1", Map.of("kubeconfig", cluster.kubeconfig(MockCluster.TOKEN)));
        kernel.enableConnector(admin, "k8s-1.x");
        String distribution = sensor("distribution", "k8s.about", Map.of(), """
                {"rules": [{"name": "not k3s", "state": "critical", "when": {"path": "/distribution", "ne": "k3s"}}]}""");
        String web = sensor("web-pods", "k8s.pod.list", Map.of("namespace", "shop", "label_selector", "app=web"), """
                {"rules": [{"name": "too few web pods", "state": "degraded",
                            "when": {"path": "/*", "measure": "count", "lt": 3}}]}""");
        JsonNode about = firstResult(distribution);
        assertThat(about.path("state").asText()).as(about.toString()).isEqualTo("ok");
        JsonNode pods = firstResult(web);
        assertThat(pods.path("state").asText()).as(pods.toString()).isEqualTo("degraded");
        assertThat(pods.path("detail").asText()).isEqualTo("too few web pods matched");
        JsonNode audit = ok(kernel.get("/api/v1/audit/" + pods.path("audit_id").asText(), admin), 200);
        assertThat(audit.path("principal").asText()).isEqualTo("svc-sensor:" + web);
        assertThat(audit.path("op_id").asText()).isEqualTo("k8s.pod.list");
        assertThat(audit.toString()).doesNotContain(MockCluster.TOKEN);
        assertThat(ok(kernel.get("/api/v1/sensors/" + web + "/results", admin), 200).toString())
                .doesNotContain(MockCluster.TOKEN);
        var write = kernel.post("/api/v1/sensors", admin, Map.of("name", "w", "connector_id", "k8s-1.x", "op_id",
                "k8s.pod.delete", "target", "c1", "interval_seconds", 60, "assertion", JSON.readTree(
                        "{\"rules\": [{\"state\": \"ok\", \"when\": {\"path\": \"\", \"exists\": true}}]}")));
        assertThat(write.status()).as(write.body()).isEqualTo(422);
        assertThat(write.json().path("error").asText()).isEqualTo("not_a_read_operation");
    }
}
