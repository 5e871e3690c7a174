package dev.backplane.deploy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Strict parsing of rendered objects with fabric8's Kubernetes model. */
final class K8s {

    /** The kinds the chart renders (besides the monitoring CRDs), with the API version each must use. */
    static final Map<String, Map.Entry<String, Class<? extends HasMetadata>>> KINDS = Map.of(
            "ServiceAccount", Map.entry("v1", ServiceAccount.class),
            "Service", Map.entry("v1", Service.class),
            "ConfigMap", Map.entry("v1", ConfigMap.class),
            "Pod", Map.entry("v1", Pod.class),
            "Deployment", Map.entry("apps/v1", Deployment.class),
            "Job", Map.entry("batch/v1", Job.class),
            "Ingress", Map.entry("networking.k8s.io/v1", Ingress.class),
            "NetworkPolicy", Map.entry("networking.k8s.io/v1", NetworkPolicy.class),
            "PodDisruptionBudget", Map.entry("policy/v1", PodDisruptionBudget.class),
            "HorizontalPodAutoscaler", Map.entry("autoscaling/v2", HorizontalPodAutoscaler.class));

    /** Unknown properties fail, and "8080" is not an int. */
    static final ObjectMapper STRICT = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .build();

    private K8s() {
    }

    /** Parses one rendered document as its kind's model class; fails on an unknown kind or API version. */
    static HasMetadata parse(JsonNode doc) {
        String kind = doc.path("kind").asText();
        var entry = KINDS.get(kind);
        if (entry == null) {
            throw new AssertionError("a kind the chart is not known to render: " + kind);
        }
        if (!entry.getKey().equals(doc.path("apiVersion").asText())) {
            throw new AssertionError(kind + " must be " + entry.getKey() + ", is " + doc.path("apiVersion").asText());
        }
        try {
            return STRICT.treeToValue(doc, entry.getValue());
        } catch (Exception e) {
            throw new AssertionError(kind + " " + doc.path("metadata").path("name").asText() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Every field fabric8 did not recognise, anywhere in the object: fabric8's models keep unknown fields in
     * {@code additionalProperties} instead of failing, so FAIL_ON_UNKNOWN_PROPERTIES alone is not enough.
     */
    static List<String> unknownFields(Object root) {
        List<String> out = new ArrayList<>();
        walk(root, "", out, java.util.Collections.newSetFromMap(new IdentityHashMap<>()));
        return out;
    }

    private static void walk(Object o, String path, List<String> out, Set<Object> seen) {
        if (o == null || !seen.add(o)) {
            return;
        }
        if (o instanceof Collection<?> c) {
            int i = 0;
            for (Object e : c) {
                walk(e, path + "[" + i++ + "]", out, seen);
            }
            return;
        }
        if (o instanceof Map<?, ?> m) {
            m.forEach((k, v) -> walk(v, path + "." + k, out, seen));
            return;
        }
        if (!o.getClass().getName().startsWith("io.fabric8.")) {
            return;
        }
        for (Method g : o.getClass().getMethods()) {
            if (g.getParameterCount() != 0 || Modifier.isStatic(g.getModifiers()) || !g.getName().startsWith("get")
                    || g.getDeclaringClass() == Object.class) {
                continue;
            }
            Object v;
            try {
                v = g.invoke(o);
            } catch (ReflectiveOperationException e) {
                continue;
            }
            if (g.getName().equals("getAdditionalProperties")) {
                if (v instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    out.add(path + ": unknown field(s) " + extra.keySet());
                }
                continue;
            }
            walk(v, path + "." + Character.toLowerCase(g.getName().charAt(3)) + g.getName().substring(4), out, seen);
        }
    }
}
