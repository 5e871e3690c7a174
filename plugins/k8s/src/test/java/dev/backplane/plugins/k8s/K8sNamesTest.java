package dev.backplane.plugins.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.OperationResult;
import dev.backplane.plugin.api.TargetSpec;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Namespaces, names and containers become URL path segments: a '..' (or a '/') would reach another resource,
 * for a delete even the whole collection, behind a path-normalising proxy. They are refused before any request.
 */
class K8sNamesTest {

    @Test
    void dotSegmentsAndSlashesInNamesAreInvalidParamsAndNothingIsSent() throws Exception {
        try (MockCluster cluster = new MockCluster().seed(0)) {
            TargetSpec target = new TargetSpec("mock", "k8s", "localhost", cluster.port(), Optional.empty(), true,
                    Optional.empty(), Optional.empty(), Map.of());
            try (Connector c = new K8sConnectorFactory().open(new dev.backplane.plugin.api.testkit.RecordingContext(), target,
                    new Credential(Map.of("kubeconfig", cluster.kubeconfig(MockCluster.TOKEN))))) {
                int before = cluster.requestCount();
                for (Map<String, Object> params : List.<Map<String, Object>>of(
                        Map.of("namespace", "shop", "name", ".."), Map.of("namespace", "..", "name", "web-0"),
                        Map.of("namespace", "shop", "name", "."), Map.of("namespace", "shop", "name", "a/../b"),
                        Map.of("namespace", "shop", "name", "web-0", "container", ".."))) {
                    for (String op : List.of("k8s.pod.info", "k8s.pod.delete", "k8s.logs")) {
                        OperationResult r = c.invoke(new OperationRequest(op, params, Optional.empty()));
                        assertThat(r).as(op + " " + params).isInstanceOfSatisfying(OperationResult.Failure.class,
                                f -> assertThat(f.code()).isEqualTo(ErrorCode.INVALID_PARAMS));
                    }
                }
                for (String path : List.of("..", "../pods", ".")) {
                    assertThat(c.invoke(new OperationRequest("k8s.ls", Map.of("path", path), Optional.empty())))
                            .as(path).isInstanceOfSatisfying(OperationResult.Failure.class,
                                    f -> assertThat(f.code()).isEqualTo(ErrorCode.INVALID_PARAMS));
                }
                assertThat(cluster.requestCount()).as("no request reached the API server").isEqualTo(before);
                assertThat(c.invoke(new OperationRequest("k8s.pod.info", Map.of("namespace", "shop", "name", "web-0"),
                        Optional.empty()))).isNotInstanceOf(OperationResult.Failure.class);
            }
        }
    }
}
