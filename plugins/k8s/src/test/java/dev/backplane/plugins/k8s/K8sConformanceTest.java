package dev.backplane.plugins.k8s;

import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugin.api.testkit.ConnectorConformanceTest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The connector conformance kit against the mock cluster over TLS. */
class K8sConformanceTest extends ConnectorConformanceTest {

    private static MockCluster cluster;

    @BeforeAll
    static void start() {
        cluster = new MockCluster().seed(0);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Override
    protected ConnectorFactory factory() {
        return new K8sConnectorFactory();
    }

    @Override
    protected TargetSpec reachableTarget() {
        return new TargetSpec("mock", "k8s", "localhost", cluster.port(), Optional.empty(), true, Optional.empty(),
                Optional.empty(), Map.of());
    }

    @Override
    protected Credential goodCredential() {
        return new Credential(Map.of("kubeconfig", cluster.kubeconfig(MockCluster.TOKEN)));
    }

    @Override
    protected Credential rejectedCredential() {
        return new Credential(Map.of("kubeconfig", cluster.kubeconfig("wrong-token-0123456789")));
    }

    @Override
    protected java.util.Set<String> secretValues() {
        return java.util.Set.of(MockCluster.TOKEN, "wrong-token-0123456789");
    }

    @Override
    protected List<OperationRequest> sampleCalls() {
        return List.of(
                sampleCall("k8s.pod.list", Map.of("namespace", "shop")),
                sampleCall("k8s.about", Map.of()),
                sampleCall("k8s.namespace.list", Map.of()),
                sampleCall("k8s.node.list", Map.of()),
                sampleCall("k8s.pod.info", Map.of("namespace", "shop", "name", "web-0")),
                sampleCall("k8s.logs", Map.of("namespace", "shop", "name", "web-0")),
                sampleCall("k8s.deployment.list", Map.of("all_namespaces", true)),
                sampleCall("k8s.deployment.info", Map.of("namespace", "shop", "name", "web")),
                sampleCall("k8s.event.list", Map.of("namespace", "shop")),
                sampleCall("k8s.ingress.list", Map.of("namespace", "shop")),
                sampleCall("k8s.service.list", Map.of("all_namespaces", true)),
                sampleCall("k8s.service.info", Map.of("namespace", "shop", "name", "web")),
                sampleCall("k8s.ls", Map.of("path", "shop")));
    }
}
