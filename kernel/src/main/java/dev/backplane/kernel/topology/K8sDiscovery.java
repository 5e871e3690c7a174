package dev.backplane.kernel.topology;

import dev.backplane.kernel.dispatch.ResultEnvelope;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.targets.Target;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Discovery of a Kubernetes target through the k8s connector's read operations, each one a governed
 * call through the dispatch pipeline (gate, credentials, audit row as the discovery principal): nodes
 * and namespaces belong-to the cluster's target, pods run-on their node and belong-to their namespace,
 * deployments and ingresses belong-to their namespace, and pods mount the persistent volume claims
 * their spec names (read with {@code k8s.pod.info}). A cluster beyond a cap ({@value #MAX_POD_INFOS} pods, {@value #MAX_PAGES}
 * pages a list) is refused with {@code refresh_failed} rather than read in part.
 * Node names carry the target's name ({@code <target>/<namespace>/<pod>}), so two clusters never share
 * a node by accident.
 */
final class K8sDiscovery extends Discovery {

    static final String CONNECTOR = "k8s-1.x";
    static final int MAX_POD_INFOS = 200;
    static final int MAX_PAGES = 20;

    K8sDiscovery(DiscoveryCalls calls) {
        super("k8s", calls);
    }

    @Override
    List<Seen> observe(Caller system, Target target) {
        String t = target.name();
        List<Seen> out = new ArrayList<>();
        Seen.Node cluster = new Seen.Node(Vocabulary.TARGET, t);
        for (Map<?, ?> n : list(system, t, "k8s.namespace.list", Map.of())) {
            out.add(new Seen(new Seen.Node("namespace", t + "/" + n.get("name")), "belongs-to", cluster));
        }
        for (Map<?, ?> n : list(system, t, "k8s.node.list", Map.of())) {
            out.add(new Seen(new Seen.Node("node", t + "/" + n.get("name")), "belongs-to", cluster));
        }
        List<Map<?, ?>> pods = list(system, t, "k8s.pod.list", Map.of("all_namespaces", true));
        if (pods.size() > MAX_POD_INFOS) {
            throw DiscoveryCalls.capHit(t, "MAX_POD_INFOS", MAX_POD_INFOS, pods.size() + " pods (each read with "
                    + "k8s.pod.info for its volume mounts)");
        }
        for (Map<?, ?> p : pods) {
            Seen.Node pod = new Seen.Node("pod", t + "/" + p.get("namespace") + "/" + p.get("name"));
            out.add(new Seen(pod, "belongs-to", new Seen.Node("namespace", t + "/" + p.get("namespace"))));
            if (p.get("node") instanceof String node && !node.isEmpty()) {
                out.add(new Seen(pod, "runs-on", new Seen.Node("node", t + "/" + node)));
            }
        }
        for (String op : List.of("k8s.deployment.list", "k8s.ingress.list")) {
            String kind = op.equals("k8s.deployment.list") ? "deployment" : "ingress";
            for (Map<?, ?> d : list(system, t, op, Map.of("all_namespaces", true))) {
                out.add(new Seen(new Seen.Node(kind, t + "/" + d.get("namespace") + "/" + d.get("name")), "belongs-to",
                        new Seen.Node("namespace", t + "/" + d.get("namespace"))));
            }
        }
        for (Map<?, ?> p : pods) {
            Seen.Node pod = new Seen.Node("pod", t + "/" + p.get("namespace") + "/" + p.get("name"));
            for (String claim : claims(calls.call(system, CONNECTOR, t, "k8s.pod.info", Map.of("namespace",
                    p.get("namespace"), "name", p.get("name"))).result())) {
                out.add(new Seen(pod, "mounts", new Seen.Node("volume", t + "/" + p.get("namespace") + "/" + claim)));
            }
        }
        return out;
    }

    /** The persistent volume claims a pod's spec mounts. */
    private static List<String> claims(Object pod) {
        List<String> out = new ArrayList<>();
        if (pod instanceof Map<?, ?> m && m.get("spec") instanceof Map<?, ?> spec && spec.get("volumes") instanceof List<?> vs) {
            for (Object v : vs) {
                if (v instanceof Map<?, ?> vol && vol.get("persistentVolumeClaim") instanceof Map<?, ?> pvc
                        && pvc.get("claimName") instanceof String claim) {
                    out.add(claim);
                }
            }
        }
        return out;
    }

    /** Every row of a list operation: its pages (continue tokens), each read whole from its handle if reduced. */
    private List<Map<?, ?>> list(Caller system, String target, String op, Map<String, Object> params) {
        List<Map<?, ?>> rows = new ArrayList<>();
        Map<String, Object> p = new HashMap<>(params);
        p.put("limit", DiscoveryCalls.PAGE);
        for (int page = 0; ; page++) {
            if (page == MAX_PAGES) {
                throw DiscoveryCalls.capHit(target, "MAX_PAGES", MAX_PAGES, op + " (pages of " + DiscoveryCalls.PAGE
                        + " rows)");
            }
            ResultEnvelope env = calls.call(system, CONNECTOR, target, op, p);
            rows.addAll(calls.rows(system, env));
            Object token = env.extras().get("continue_token");
            if (!(token instanceof String next) || next.isBlank()) {
                return rows;
            }
            p.put("continue", next);
        }
    }
}
