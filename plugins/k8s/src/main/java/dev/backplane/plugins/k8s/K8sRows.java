package dev.backplane.plugins.k8s;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.IngressLoadBalancerIngress;
import io.fabric8.kubernetes.api.model.networking.v1.IngressRule;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/** The flat rows list operations return: the columns an operator scans, in a stable order. */
final class K8sRows {

    static final List<String> LS_KINDS = List.of("pods", "deployments", "services", "ingresses", "events");

    private K8sRows() {
    }

    static Map<String, Object> namespace(Namespace n) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("name", n.getMetadata().getName());
        r.put("phase", n.getStatus() == null ? null : n.getStatus().getPhase());
        r.put("created", n.getMetadata().getCreationTimestamp());
        return r;
    }

    static Map<String, Object> node(Node n) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("name", n.getMetadata().getName());
        Optional<NodeCondition> ready = n.getStatus() == null || n.getStatus().getConditions() == null ? Optional.empty()
                : n.getStatus().getConditions().stream().filter(c -> "Ready".equals(c.getType())).findFirst();
        r.put("ready", ready.map(c -> "True".equals(c.getStatus())).orElse(null));
        Map<String, String> labels = labels(n);
        r.put("roles", labels.keySet().stream().filter(k -> k.startsWith("node-role.kubernetes.io/"))
                .map(k -> k.substring("node-role.kubernetes.io/".length())).sorted().collect(Collectors.joining(",")));
        r.put("kubelet_version", n.getStatus() == null || n.getStatus().getNodeInfo() == null ? null
                : n.getStatus().getNodeInfo().getKubeletVersion());
        r.put("internal_ip", n.getStatus() == null || n.getStatus().getAddresses() == null ? null
                : n.getStatus().getAddresses().stream().filter(a -> "InternalIP".equals(a.getType()))
                        .map(NodeAddress::getAddress).findFirst().orElse(null));
        r.put("created", n.getMetadata().getCreationTimestamp());
        return r;
    }

    static Map<String, Object> pod(Pod p) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("name", p.getMetadata().getName());
        r.put("namespace", p.getMetadata().getNamespace());
        List<ContainerStatus> statuses = p.getStatus() == null || p.getStatus().getContainerStatuses() == null
                ? List.of() : p.getStatus().getContainerStatuses();
        int containers = p.getSpec() == null || p.getSpec().getContainers() == null ? statuses.size()
                : p.getSpec().getContainers().size();
        r.put("phase", p.getStatus() == null ? null : p.getStatus().getPhase());
        r.put("ready", statuses.stream().filter(s -> Boolean.TRUE.equals(s.getReady())).count() + "/" + containers);
        r.put("restarts", statuses.stream().mapToInt(s -> s.getRestartCount() == null ? 0 : s.getRestartCount()).sum());
        r.put("node", p.getSpec() == null ? null : p.getSpec().getNodeName());
        r.put("ip", p.getStatus() == null ? null : p.getStatus().getPodIP());
        r.put("created", p.getMetadata().getCreationTimestamp());
        return r;
    }

    static Map<String, Object> deployment(Deployment d) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("name", d.getMetadata().getName());
        r.put("namespace", d.getMetadata().getNamespace());
        r.put("replicas", d.getSpec() == null ? null : d.getSpec().getReplicas());
        r.put("ready_replicas", d.getStatus() == null ? null : d.getStatus().getReadyReplicas());
        r.put("updated_replicas", d.getStatus() == null ? null : d.getStatus().getUpdatedReplicas());
        r.put("available_replicas", d.getStatus() == null ? null : d.getStatus().getAvailableReplicas());
        r.put("created", d.getMetadata().getCreationTimestamp());
        return r;
    }

    static Map<String, Object> event(Event e) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("namespace", e.getMetadata().getNamespace());
        r.put("type", e.getType());
        r.put("reason", e.getReason());
        r.put("object", e.getInvolvedObject() == null ? null
                : e.getInvolvedObject().getKind() + "/" + e.getInvolvedObject().getName());
        r.put("message", e.getMessage());
        r.put("count", e.getCount());
        r.put("last_seen", Objects.requireNonNullElse(e.getLastTimestamp(), e.getMetadata().getCreationTimestamp()));
        return r;
    }

    static Map<String, Object> ingress(Ingress i) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("name", i.getMetadata().getName());
        r.put("namespace", i.getMetadata().getNamespace());
        r.put("class", i.getSpec() == null ? null : i.getSpec().getIngressClassName());
        List<IngressRule> rules = i.getSpec() == null || i.getSpec().getRules() == null ? List.of() : i.getSpec().getRules();
        r.put("hosts", rules.stream().map(IngressRule::getHost).filter(Objects::nonNull).collect(Collectors.joining(",")));
        List<IngressLoadBalancerIngress> lb = i.getStatus() == null || i.getStatus().getLoadBalancer() == null
                || i.getStatus().getLoadBalancer().getIngress() == null ? List.of()
                : i.getStatus().getLoadBalancer().getIngress();
        r.put("addresses", lb.stream().map(a -> a.getIp() != null ? a.getIp() : a.getHostname()).filter(Objects::nonNull)
                .collect(Collectors.joining(",")));
        return r;
    }

    /** Service list rows carry the key only (SPEC): namespace and name; k8s.service.info has the rest. */
    static Map<String, Object> serviceKey(Service s) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("name", s.getMetadata().getName());
        r.put("namespace", s.getMetadata().getNamespace());
        return r;
    }

    static Map<String, Object> entry(String kind, String name, String path) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("kind", kind);
        r.put("name", name);
        r.put("path", path);
        return r;
    }

    /** One object in full as JSON, without the server-side bookkeeping nobody reads (managedFields). */
    @SuppressWarnings("unchecked")
    static Map<String, Object> full(HasMetadata item, KubernetesSerialization serialization) {
        Map<String, Object> m = serialization.convertValue(item, Map.class);
        if (m.get("metadata") instanceof Map<?, ?> meta) {
            ((Map<String, Object>) meta).remove("managedFields");
        }
        return m;
    }

    private static Map<String, String> labels(HasMetadata o) {
        return o.getMetadata().getLabels() == null ? Map.of() : o.getMetadata().getLabels();
    }
}
