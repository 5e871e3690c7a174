package dev.backplane.plugins.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.plugin.api.TargetSpec;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which address a node's candidate dials, and what a node without a role or address becomes. */
class K8sMembersTest {

    private static final TargetSpec SEED = new TargetSpec("prod", "k8s", "api.prod.example", 443, Optional.empty(), true,
            Optional.empty(), Optional.empty(), Map.of());

    private static Node node(String name, String role, String... addresses) {
        var b = new NodeBuilder().withNewMetadata().withName(name);
        if (role != null) {
            b = b.addToLabels("node-role.kubernetes.io/" + role, "");
        }
        var s = b.endMetadata().withNewStatus();
        for (int i = 0; i < addresses.length; i += 2) {
            s = s.addNewAddress().withType(addresses[i]).withAddress(addresses[i + 1]).endAddress();
        }
        return s.endStatus().build();
    }

    @Test
    void internalIpFirstThenExternalThenHostname() {
        var c = K8sMembers.of(List.of(
                node("a", "control-plane", "ExternalIP", "198.51.100.7", "InternalIP", "10.0.0.7"),
                node("b", "master", "ExternalIP", "198.51.100.8", "Hostname", "b.prod.example"),
                node("c", "control-plane", "Hostname", "c.prod.example"),
                node("d", "control-plane")), SEED);
        assertThat(c).extracting(m -> m.get("host")).containsExactly("10.0.0.7", "198.51.100.8", "c.prod.example", null);
        assertThat(c).allSatisfy(m -> assertThat(m).containsEntry("product", "k8s").containsEntry("port", 443)
                .doesNotContainKeys("version", "tls_server_name", "seed"));
        assertThat(c.getFirst().get("notes").toString()).contains("InternalIP 10.0.0.7").contains("ExternalIP 198.51.100.7");
    }

    @Test
    void workersAndUnlabelledNodesHaveNoProductAndTheSeedsOwnNodeIsMarked() {
        var c = K8sMembers.of(List.of(node("w", "worker", "InternalIP", "10.0.0.9"), node("x", null, "InternalIP",
                "10.0.0.10"), node("self", "control-plane", "ExternalIP", "API.prod.example")), SEED);
        assertThat(c.get(0)).doesNotContainKeys("product", "port").containsEntry("name", "prod-w");
        assertThat(c.get(0).get("notes").toString()).contains("worker (runs no API server");
        assertThat(c.get(1).get("notes").toString()).contains("roles none");
        assertThat(c.get(2)).containsEntry("seed", true);
    }
}
