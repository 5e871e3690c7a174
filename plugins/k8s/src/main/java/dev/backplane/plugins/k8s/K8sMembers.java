package dev.backplane.plugins.k8s;

import dev.backplane.plugin.api.TargetSpec;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What {@code svc targets discover k8s} finds through a cluster: its nodes. A target of product {@code k8s}
 * is an API server, so only control-plane nodes (role label {@code control-plane} or {@code master}; k3s
 * servers carry both) are importable candidates, each one API server of the cluster reached directly,
 * bypassing the load balancer the seed may be: host is the node's InternalIP (what the API server advertises
 * and its certificate names), else its ExternalIP, else its Hostname address; the port and
 * {@code tls_server_name} are the seed's (a cluster's API servers listen alike and share their certificate's
 * names); the kubelet version is the version hint until the first probe. Worker nodes run no API server: they
 * are listed without a product, so the plan shows the whole cluster but offers only what a k8s target can be.
 * A managed cluster (EKS, GKE, AKS) hides its control plane, so it has no importable members. The contexts of
 * the staged kubeconfig are not read: the backplane uses the current context only, and a kubeconfig's other
 * clusters need credentials of their own.
 */
final class K8sMembers {

    private static final String ROLE = "node-role.kubernetes.io/";
    private static final Set<String> CONTROL_PLANE = Set.of("control-plane", "master");

    private K8sMembers() {
    }

    static List<Map<String, Object>> of(List<Node> nodes, TargetSpec seed) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Node n : nodes) {
            if (n.getMetadata() == null || n.getMetadata().getName() == null) {
                continue;
            }
            String node = n.getMetadata().getName();
            List<String> roles = roles(n);
            boolean controlPlane = roles.stream().anyMatch(CONTROL_PLANE::contains);
            Optional<String> internal = address(n, "InternalIP");
            Optional<String> external = address(n, "ExternalIP");
            Optional<String> host = internal.or(() -> external).or(() -> address(n, "Hostname"));
            Optional<String> kubelet = Optional.ofNullable(n.getStatus() == null || n.getStatus().getNodeInfo() == null
                    ? null : n.getStatus().getNodeInfo().getKubeletVersion()).filter(v -> !v.isBlank());
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("name", seed.name() + "-" + node);
            host.ifPresent(h -> c.put("host", h));
            if (controlPlane) {
                c.put("product", K8sConnectorFactory.PRODUCT);
                c.put("port", seed.port());
                kubelet.ifPresent(v -> c.put("version", v.startsWith("v") ? v.substring(1) : v));
                seed.tlsServerName().ifPresent(s -> c.put("tls_server_name", s));
            }
            StringBuilder notes = new StringBuilder("node ").append(node).append(" of ").append(seed.name())
                    .append(": ").append(controlPlane ? "control-plane (an API server)"
                            : "worker (runs no API server; not a k8s target)");
            notes.append(", roles ").append(roles.isEmpty() ? "none" : String.join(",", roles));
            kubelet.ifPresent(v -> notes.append(", kubelet ").append(v));
            internal.ifPresent(a -> notes.append(", InternalIP ").append(a));
            external.ifPresent(a -> notes.append(", ExternalIP ").append(a));
            c.put("notes", notes.toString());
            if (controlPlane && (internal.map(seed.host()::equalsIgnoreCase).orElse(false)
                    || external.map(seed.host()::equalsIgnoreCase).orElse(false))) {
                c.put("seed", true); // the seed's own API server (whatever port the seed names)
            }
            out.add(c);
        }
        return out;
    }

    private static List<String> roles(Node n) {
        Map<String, String> labels = n.getMetadata().getLabels() == null ? Map.of() : n.getMetadata().getLabels();
        return labels.keySet().stream().filter(k -> k.startsWith(ROLE)).map(k -> k.substring(ROLE.length()))
                .map(k -> k.toLowerCase(Locale.ROOT)).sorted().toList();
    }

    private static Optional<String> address(Node n, String type) {
        if (n.getStatus() == null || n.getStatus().getAddresses() == null) {
            return Optional.empty();
        }
        return n.getStatus().getAddresses().stream().filter(a -> type.equals(a.getType())).map(NodeAddress::getAddress)
                .filter(a -> a != null && !a.isBlank()).findFirst();
    }
}
