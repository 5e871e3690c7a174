package dev.backplane.plugins.k8s;

import dev.backplane.plugin.api.HttpPreview;
import dev.backplane.plugin.api.OperationRequest;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The HTTP request each operation sends, for preview (and the preview hash of dangerous ones). */
final class K8sPreviews {

    private K8sPreviews() {
    }

    static Optional<HttpPreview> of(OperationRequest request, Clock clock) {
        K8sSession.Params p = new K8sSession.Params(request.params());
        String ns = p.string("namespace").orElse("");
        String name = p.string("name").orElse("");
        boolean all = p.bool("all_namespaces").orElse(false);
        Map<String, List<String>> query = new LinkedHashMap<>();
        return Optional.ofNullable(switch (request.opId()) {
            case "k8s.about" -> new HttpPreview("GET", "/version", query, Optional.empty());
            case "k8s.namespace.list" -> list("/api/v1/namespaces", p, query, null);
            case "k8s.node.list" -> list("/api/v1/nodes", p, query, null);
            case "k8s.pod.list" -> list(scoped("/api/v1", all, ns, "pods"), p, query, null);
            case "k8s.deployment.list" -> list(scoped("/apis/apps/v1", all, ns, "deployments"), p, query, null);
            case "k8s.event.list" -> list(scoped("/api/v1", all, ns, "events"), p, query, K8sCatalog.EVENT_LIMIT_DEFAULT);
            case "k8s.ingress.list" -> list(scoped("/apis/networking.k8s.io/v1", all, ns, "ingresses"), p, query, null);
            case "k8s.service.list" -> list(scoped("/api/v1", all, ns, "services"), p, query, null);
            case "k8s.pod.info" -> get("/api/v1/namespaces/" + ns + "/pods/" + name, query);
            case "k8s.deployment.info" -> get("/apis/apps/v1/namespaces/" + ns + "/deployments/" + name, query);
            case "k8s.service.info" -> get("/api/v1/namespaces/" + ns + "/services/" + name, query);
            case "k8s.logs" -> {
                p.string("container").ifPresent(c -> query.put("container", List.of(c)));
                if (p.bool("previous").orElse(false)) {
                    query.put("previous", List.of("true"));
                }
                p.string("since").ifPresent(s -> query.put("sinceSeconds", List.of(String.valueOf(K8sSession.seconds(s)))));
                query.put("tailLines", List.of(String.valueOf(Math.min(p.integer("tail").orElse(K8sCatalog.TAIL_DEFAULT),
                        K8sCatalog.TAIL_MAX))));
                yield new HttpPreview("GET", "/api/v1/namespaces/" + ns + "/pods/" + name + "/log", query, Optional.empty());
            }
            case "k8s.deployment.scale" -> new HttpPreview("PATCH", "/apis/apps/v1/namespaces/" + ns + "/deployments/"
                    + name, query, Optional.of(Map.of("spec", Map.of("replicas", p.integer("replicas").orElse(0)))));
            case "k8s.deployment.restart" -> new HttpPreview("PATCH", "/apis/apps/v1/namespaces/" + ns + "/deployments/"
                    + name, query, Optional.of(Map.of("spec", Map.of("template", Map.of("metadata", Map.of("annotations",
                    Map.of("kubectl.kubernetes.io/restartedAt", "<time of the call>")))))));
            case "k8s.pod.delete" -> {
                p.integer("grace_period_seconds").ifPresent(g -> query.put("gracePeriodSeconds", List.of(g.toString())));
                yield new HttpPreview("DELETE", "/api/v1/namespaces/" + ns + "/pods/" + name, query, Optional.empty());
            }
            default -> null; // k8s.ls is several requests; unknown ids have no preview
        });
    }

    private static String scoped(String prefix, boolean all, String ns, String plural) {
        return all ? prefix + "/" + plural : prefix + "/namespaces/" + ns + "/" + plural;
    }

    private static HttpPreview get(String path, Map<String, List<String>> query) {
        return new HttpPreview("GET", path, query, Optional.empty());
    }

    private static HttpPreview list(String path, K8sSession.Params p, Map<String, List<String>> query,
                                    Integer defaultLimit) {
        p.string("label_selector").ifPresent(s -> query.put("labelSelector", List.of(s)));
        p.string("field_selector").ifPresent(s -> query.put("fieldSelector", List.of(s)));
        p.string("continue").ifPresent(s -> query.put("continue", List.of(s)));
        p.integer("limit").or(() -> Optional.ofNullable(defaultLimit))
                .ifPresent(l -> query.put("limit", List.of(String.valueOf(l))));
        return new HttpPreview("GET", path, query, Optional.empty());
    }
}
