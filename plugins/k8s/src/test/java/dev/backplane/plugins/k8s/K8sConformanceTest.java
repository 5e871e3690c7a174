package dev.backplane.plugins.k8s;

import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugin.api.testkit.ClassFixture;
import dev.backplane.plugin.api.testkit.ConnectorConformanceTest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The connector conformance kit against the mock cluster over TLS. */
class K8sConformanceTest extends ConnectorConformanceTest {

    private static final String WRONG_TOKEN = "wrong-token-0123456789";

    @RegisterExtension
    static final ClassFixture<MockCluster> CLUSTER = ClassFixture.of(() -> new MockCluster().seed(0));

    @Override
    protected Subject subject() {
        MockCluster cluster = CLUSTER.get();
        return new Subject(new K8sConnectorFactory(),
                new TargetSpec("mock", "k8s", "localhost", cluster.port(), Optional.empty(), true, Optional.empty(),
                        Optional.empty(), Map.of()),
                new Credential(Map.of("kubeconfig", cluster.kubeconfig(MockCluster.TOKEN))),
                new Credential(Map.of("kubeconfig", cluster.kubeconfig(WRONG_TOKEN))),
                List.of(
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
                        sampleCall("k8s.ls", Map.of("path", "shop"))))
                .withSecretValues(Set.of(MockCluster.TOKEN, WRONG_TOKEN));
    }
}
