package dev.backplane.plugins.k8s;

import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationGroup;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.ResultKind;
import dev.backplane.plugin.api.SafetyLevel;
import java.util.List;

/** The k8s operations: the SPEC's k8s family plus three governed writes. */
final class K8sCatalog {

    static final int LIST_LIMIT_MAX = 1000;
    static final int EVENT_LIMIT_DEFAULT = 100;
    static final int EVENT_LIMIT_MAX = 500;
    static final int TAIL_DEFAULT = 100;
    static final int TAIL_MAX = 5000;

    private K8sCatalog() {
    }

    /** Selector, paging and limit properties shared by every list. */
    private static String listProperties(int limitMax) {
        return """
                "label_selector": {"type": "string", "minLength": 1, "description": "label selector, e.g. app=web,tier!=db"},
                "field_selector": {"type": "string", "minLength": 1, "description": "field selector, e.g. status.phase=Running"},
                "continue": {"type": "string", "minLength": 1, "description": "continue token from a previous page (extras.continue_token)"},
                "limit": {"type": "integer", "minimum": 1, "maximum": %d, "description": "page size at the API server"}"""
                .formatted(limitMax);
    }

    /** A namespaced list: exactly one of namespace or all_namespaces true. */
    private static String namespacedList(int limitMax) {
        return """
                {"type": "object", "additionalProperties": false,
                 "properties": {
                   "namespace": {"type": "string", "minLength": 1, "maxLength": 63, "pattern": "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "description": "the namespace to list"},
                   "all_namespaces": {"type": "boolean", "description": "true to list every namespace"},
                   %s},
                 "oneOf": [
                   {"required": ["namespace"], "not": {"required": ["all_namespaces"], "properties": {"all_namespaces": {"const": true}}}},
                   {"required": ["all_namespaces"], "properties": {"all_namespaces": {"const": true}}, "not": {"required": ["namespace"]}}
                 ]}""".formatted(listProperties(limitMax));
    }

    private static final String CLUSTER_LIST = """
            {"type": "object", "additionalProperties": false, "properties": {%s}}""".formatted(listProperties(LIST_LIMIT_MAX));

    private static final String NAMED = """
            {"type": "object", "additionalProperties": false, "required": ["namespace", "name"],
             "properties": {"namespace": {"type": "string", "minLength": 1, "maxLength": 63, "pattern": "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"}, "name": {"type": "string", "minLength": 1, "maxLength": 253, "pattern": "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"}}}""";

    private static final String LOGS = """
            {"type": "object", "additionalProperties": false, "required": ["namespace", "name"],
             "properties": {
               "namespace": {"type": "string", "minLength": 1, "maxLength": 63, "pattern": "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"},
               "name": {"type": "string", "minLength": 1, "maxLength": 253, "pattern": "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$", "description": "the pod"},
               "container": {"type": "string", "minLength": 1, "maxLength": 63, "pattern": "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "description": "container (default: the pod's only one)"},
               "previous": {"type": "boolean", "description": "the previous, terminated container's log"},
               "since": {"type": "string", "pattern": "^[0-9]{1,6}[smhd]$", "description": "only lines newer than this, e.g. 10m, 2h"},
               "tail": {"type": "integer", "minimum": 1, "maximum": %d, "description": "last N lines (default %d)"}}}"""
            .formatted(TAIL_MAX, TAIL_DEFAULT);

    private static final String SCALE = """
            {"type": "object", "additionalProperties": false, "required": ["namespace", "name", "replicas"],
             "properties": {"namespace": {"type": "string", "minLength": 1, "maxLength": 63, "pattern": "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"}, "name": {"type": "string", "minLength": 1, "maxLength": 253, "pattern": "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"},
                            "replicas": {"type": "integer", "minimum": 0, "maximum": 10000}}}""";

    private static final String DELETE = """
            {"type": "object", "additionalProperties": false, "required": ["namespace", "name"],
             "properties": {"namespace": {"type": "string", "minLength": 1, "maxLength": 63, "pattern": "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"}, "name": {"type": "string", "minLength": 1, "maxLength": 253, "pattern": "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"},
                            "grace_period_seconds": {"type": "integer", "minimum": 0, "maximum": 3600}}}""";

    private static final String LS = """
            {"type": "object", "additionalProperties": false,
             "properties": {"path": {"type": "string", "pattern": "^([a-z0-9]([-a-z0-9]*[a-z0-9])?)?(/[a-z]*)?$",
               "description": "'' lists namespaces; '<namespace>' lists resource kinds with counts; '<namespace>/<kind>' lists names (kind: pods, deployments, services, ingresses, events)"}}}""";

    private static OperationDescriptor read(String opId, String group, String description, String schema,
                                            String method, String path, ResultKind kind) {
        return new OperationDescriptor(opId, group, description, SafetyLevel.SAFE, false, OpClass.READ, schema,
                new OperationShape.Http(method, path), kind);
    }

    static final Catalog CATALOG = new Catalog(List.of(
            new OperationGroup("cluster", "Cluster", "What the cluster is: version, namespaces, nodes, a browsable tree"),
            new OperationGroup("workloads", "Workloads", "Pods and deployments: list, inspect, read logs, scale, restart, delete"),
            new OperationGroup("networking", "Networking", "Services and ingresses"),
            new OperationGroup("events", "Events", "What happened recently: scheduling, pulls, crashes, evictions")),
            List.of(
                    read("k8s.about", "cluster", "The API server's Kubernetes version and platform", "{\"type\": \"object\", "
                            + "\"additionalProperties\": false}", "GET", "/version", ResultKind.OBJECT),
                    read("k8s.namespace.list", "cluster", "List namespaces with their phase and age", CLUSTER_LIST, "GET",
                            "/api/v1/namespaces", ResultKind.SET),
                    read("k8s.node.list", "cluster", "List nodes with readiness, roles, kubelet version and internal IP",
                            CLUSTER_LIST, "GET", "/api/v1/nodes", ResultKind.SET),
                    new OperationDescriptor("k8s.ls", "cluster", "Browse the cluster like a file tree: namespaces, then the "
                            + "kinds in a namespace with counts, then the names of one kind", SafetyLevel.SAFE, false,
                            OpClass.READ, LS, new OperationShape.Composite(), ResultKind.SET),
                    read("k8s.pod.list", "workloads", "List pods with phase, readiness, restarts, node and IP",
                            namespacedList(LIST_LIMIT_MAX), "GET", "/api/v1/namespaces/{namespace}/pods", ResultKind.SET),
                    read("k8s.pod.info", "workloads", "One pod in full (spec and status)", NAMED, "GET",
                            "/api/v1/namespaces/{namespace}/pods/{name}", ResultKind.OBJECT),
                    read("k8s.logs", "workloads", "The last lines of a pod's (or container's) log", LOGS, "GET",
                            "/api/v1/namespaces/{namespace}/pods/{name}/log", ResultKind.OBJECT),
                    read("k8s.deployment.list", "workloads", "List deployments with desired, ready, updated and available "
                            + "replicas", namespacedList(LIST_LIMIT_MAX), "GET",
                            "/apis/apps/v1/namespaces/{namespace}/deployments", ResultKind.SET),
                    read("k8s.deployment.info", "workloads", "One deployment in full (spec and status)", NAMED, "GET",
                            "/apis/apps/v1/namespaces/{namespace}/deployments/{name}", ResultKind.OBJECT),
                    read("k8s.event.list", "events", "Recent events: type, reason, object, message, count (limit default "
                            + EVENT_LIMIT_DEFAULT + ", at most " + EVENT_LIMIT_MAX + ")", namespacedList(EVENT_LIMIT_MAX),
                            "GET", "/api/v1/namespaces/{namespace}/events", ResultKind.SET),
                    read("k8s.ingress.list", "networking", "List ingresses with class, hosts and addresses",
                            namespacedList(LIST_LIMIT_MAX), "GET",
                            "/apis/networking.k8s.io/v1/namespaces/{namespace}/ingresses", ResultKind.SET),
                    read("k8s.service.list", "networking", "List services by key only (namespace and name); use "
                            + "k8s.service.info for one service's ports and selectors", namespacedList(LIST_LIMIT_MAX), "GET",
                            "/api/v1/namespaces/{namespace}/services", ResultKind.SET),
                    read("k8s.service.info", "networking", "One service in full (type, ports, selector, cluster IP)", NAMED,
                            "GET", "/api/v1/namespaces/{namespace}/services/{name}", ResultKind.OBJECT),
                    new OperationDescriptor("k8s.deployment.scale", "workloads", "Set a deployment's replica count",
                            SafetyLevel.CAUTION, true, OpClass.WRITE, SCALE,
                            new OperationShape.Http("PATCH", "/apis/apps/v1/namespaces/{namespace}/deployments/{name}"),
                            ResultKind.OBJECT),
                    new OperationDescriptor("k8s.deployment.restart", "workloads", "Rolling restart of a deployment's pods "
                            + "(like kubectl rollout restart)", SafetyLevel.CAUTION, true, OpClass.WRITE, NAMED,
                            new OperationShape.Http("PATCH", "/apis/apps/v1/namespaces/{namespace}/deployments/{name}"),
                            ResultKind.OBJECT),
                    new OperationDescriptor("k8s.pod.delete", "workloads", "Delete a pod (its controller, if any, "
                            + "replaces it)", SafetyLevel.DANGEROUS, true, OpClass.WRITE, DELETE,
                            new OperationShape.Http("DELETE", "/api/v1/namespaces/{namespace}/pods/{name}"),
                            ResultKind.OBJECT)));
}
