package dev.backplane.plugins.k8s;

import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorContext;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.Discovery;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.Fingerprint;
import dev.backplane.plugin.api.HttpPreview;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.OperationResult;
import dev.backplane.plugin.api.TargetSpec;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.dsl.ContainerResource;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.TailPrettyLoggable;
import io.fabric8.kubernetes.client.dsl.TimeTailPrettyLoggable;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.internal.SSLUtils;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;

/**
 * One session against one cluster: a fabric8 client built for this call from the target (where,
 * TLS) and the kubeconfig (who), sending every request through the kernel's egress proxy. Its
 * {@link Discovery} lists the cluster's nodes ({@link K8sMembers}).
 */
final class K8sSession implements Connector, Discovery {

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private final ConnectorContext ctx;
    private final TargetSpec target;
    private final Credential credential;
    private KubernetesClient client;

    K8sSession(ConnectorContext ctx, TargetSpec target, Credential credential) {
        this.ctx = ctx;
        this.target = target;
        this.credential = credential;
    }

    /** Builds the client on first use, so a bad kubeconfig surfaces as the call's error. */
    private KubernetesClient client() {
        if (client != null) {
            return client;
        }
        if (!credential.has(K8sConnectorFactory.KUBECONFIG)) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "the credential has no 'kubeconfig' field "
                    + "(stage the whole kubeconfig document under that name)", Map.of("missing_field", "kubeconfig"), null);
        }
        Kubeconfig kube = Kubeconfig.parse(credential.field(K8sConnectorFactory.KUBECONFIG), SERIALIZATION);
        int timeoutMillis = (int) Math.min(Integer.MAX_VALUE, ctx.timeout().toMillis());
        ConfigBuilder cb = new ConfigBuilder(Config.empty())
                .withMasterUrl("https://" + hostForUrl(target.host()) + ":" + target.port())
                .withRequestTimeout(timeoutMillis)
                .withConnectionTimeout(timeoutMillis)
                .withRequestRetryBackoffLimit(0)
                .withHttp2Disable(true);
        kube.token().ifPresent(cb::withOauthToken);
        kube.username().ifPresent(cb::withUsername);
        kube.password().ifPresent(cb::withPassword);
        Config config = cb.build();
        SSLContext ssl = ctx.sslContext(keyManagers(kube), kube.clusterCas());
        client = new KubernetesClientBuilder()
                .withConfig(config)
                .withKubernetesSerialization(SERIALIZATION)
                .withHttpClientFactory(new JdkHttpClientFactory() {
                    @Override
                    protected void additionalConfig(java.net.http.HttpClient.Builder builder) {
                        builder.sslContext(ssl).sslParameters(ctx.sslParameters());
                        ctx.httpClient().proxy().ifPresent(builder::proxy); // the kernel's SSRF-checking egress
                    }
                })
                .build();
        return client;
    }

    private static KeyManager[] keyManagers(Kubeconfig kube) {
        if (kube.clientCertPem().isEmpty()) {
            return new KeyManager[0];
        }
        try {
            return SSLUtils.keyManagers(kube.clientCertPem().get(), null, kube.clientKeyPem().get(), null, "RSA", "",
                    null, null);
        } catch (GeneralSecurityException | java.io.IOException | RuntimeException e) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "unusable kubeconfig: the client certificate or key "
                    + "cannot be loaded (" + e.getClass().getSimpleName() + ")", Map.of("credential_field", "kubeconfig"),
                    null);
        }
    }

    private static String hostForUrl(String host) {
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    @Override
    public Fingerprint probe() {
        VersionInfo v = guarded(() -> client().getKubernetesVersion());
        String git = Optional.ofNullable(v.getGitVersion()).orElse(v.getMajor() + "." + v.getMinor());
        String[] vendorProduct = distribution(git);
        return new Fingerprint(Optional.of(vendorProduct[0]), Optional.of(vendorProduct[1]),
                Optional.of(git.startsWith("v") ? git.substring(1) : git), true, ctx.clock().instant(), "GET /version");
    }

    /** The cluster's nodes as candidate targets: its control-plane nodes importable (see {@link K8sMembers}). */
    @Override
    public List<Map<String, Object>> discover(String product) {
        return K8sMembers.of(guarded(() -> client().nodes().list().getItems()), target);
    }

    /** The most specific distribution the version string gives away: {vendor, product}. */
    static String[] distribution(String gitVersion) {
        String g = gitVersion.toLowerCase(java.util.Locale.ROOT);
        if (g.contains("k3s")) {
            return new String[] {"SUSE Rancher", "k3s"};
        }
        if (g.contains("rke2")) {
            return new String[] {"SUSE Rancher", "rke2"};
        }
        if (g.contains("-eks-")) {
            return new String[] {"Amazon", "eks"};
        }
        if (g.contains("-gke.")) {
            return new String[] {"Google", "gke"};
        }
        if (g.contains("microk8s")) {
            return new String[] {"Canonical", "microk8s"};
        }
        return new String[] {"CNCF", "kubernetes"};
    }

    /** A namespace or container: a DNS-1123 label. */
    private static final java.util.regex.Pattern LABEL = java.util.regex.Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    /** An object name: a DNS-1123 subdomain (dots only between labels, so never a '.' or '..' segment). */
    private static final java.util.regex.Pattern SUBDOMAIN = java.util.regex.Pattern.compile(
            "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    @Override
    public OperationResult invoke(OperationRequest request) {
        Params p = new Params(request.params());
        // names become URL path segments: a '..' or a '/' would reach another resource (or a whole collection)
        // behind a path-normalising proxy, so they are refused here as well as by the catalog's schemas
        for (String field : List.of("namespace", "container", "name")) {
            String v = p.string(field).orElse(null);
            java.util.regex.Pattern rule = field.equals("name") ? SUBDOMAIN : LABEL;
            if (v != null && (v.length() > (field.equals("name") ? 253 : 63) || !rule.matcher(v).matches())) {
                return new OperationResult.Failure(ErrorCode.INVALID_PARAMS, field + " must be a Kubernetes "
                        + (field.equals("name") ? "object name (DNS-1123 subdomain)" : "DNS-1123 label") + ", got '"
                        + v + "'", Map.of("field", field));
            }
        }
        return switch (request.opId()) {
            case "k8s.about" -> guarded(() -> {
                VersionInfo v = client().getKubernetesVersion();
                Map<String, Object> about = new LinkedHashMap<>();
                about.put("git_version", v.getGitVersion());
                about.put("major", v.getMajor());
                about.put("minor", v.getMinor());
                about.put("platform", v.getPlatform());
                about.put("go_version", v.getGoVersion());
                about.put("build_date", v.getBuildDate() == null ? null : v.getBuildDate().toString());
                about.put("distribution", distribution(String.valueOf(v.getGitVersion()))[1]);
                about.put("api_server", target.host() + ":" + target.port());
                return new OperationResult.Document(about);
            });
            case "k8s.namespace.list" -> list(client().namespaces(), p, K8sRows::namespace, K8sCatalog.LIST_LIMIT_MAX);
            case "k8s.node.list" -> list(client().nodes(), p, K8sRows::node, K8sCatalog.LIST_LIMIT_MAX);
            case "k8s.pod.list" -> namespacedList(client().pods(), p, K8sRows::pod, null);
            case "k8s.deployment.list" -> namespacedList(client().apps().deployments(), p, K8sRows::deployment, null);
            case "k8s.event.list" -> namespacedList(client().v1().events(), p, K8sRows::event, K8sCatalog.EVENT_LIMIT_DEFAULT);
            case "k8s.ingress.list" -> namespacedList(client().network().v1().ingresses(), p, K8sRows::ingress, null);
            case "k8s.service.list" -> namespacedList(client().services(), p, K8sRows::serviceKey, null);
            case "k8s.pod.info" -> info(client().pods(), p);
            case "k8s.deployment.info" -> info(client().apps().deployments(), p);
            case "k8s.service.info" -> info(client().services(), p);
            case "k8s.logs" -> logs(p);
            case "k8s.ls" -> ls(p);
            case "k8s.deployment.scale" -> patch(p, "{\"spec\":{\"replicas\":" + p.integer("replicas").orElseThrow() + "}}");
            case "k8s.deployment.restart" -> patch(p, restartPatch());
            case "k8s.pod.delete" -> deletePod(p);
            default -> new OperationResult.Failure(ErrorCode.UNKNOWN_OPERATION, "k8s-1.x has no operation "
                    + request.opId(), Map.of());
        };
    }

    private <T extends HasMetadata, L extends KubernetesResourceList<T>> OperationResult namespacedList(
            MixedOperation<T, L, ? extends Resource<T>> op, Params p, Function<T, Map<String, Object>> row,
            Integer defaultLimit) {
        boolean all = p.bool("all_namespaces").orElse(false);
        var scoped = all ? op.inAnyNamespace() : op.inNamespace(p.string("namespace").orElseThrow());
        int max = defaultLimit != null ? K8sCatalog.EVENT_LIMIT_MAX : K8sCatalog.LIST_LIMIT_MAX;
        return guarded(() -> rows(scoped.list(listOptions(p, defaultLimit, max)), row));
    }

    private <T extends HasMetadata, L extends KubernetesResourceList<T>> OperationResult list(
            io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<T, L, ? extends Resource<T>> op, Params p,
            Function<T, Map<String, Object>> row, int max) {
        return guarded(() -> rows(op.list(listOptions(p, null, max)), row));
    }

    private static ListOptions listOptions(Params p, Integer defaultLimit, int max) {
        ListOptionsBuilder b = new ListOptionsBuilder();
        p.string("label_selector").ifPresent(b::withLabelSelector);
        p.string("field_selector").ifPresent(b::withFieldSelector);
        p.string("continue").ifPresent(b::withContinue);
        Optional<Integer> limit = p.integer("limit").or(() -> Optional.ofNullable(defaultLimit));
        limit.map(l -> Math.min(l, max)).ifPresent(l -> b.withLimit(l.longValue()));
        return b.build();
    }

    private static <T extends HasMetadata> OperationResult rows(KubernetesResourceList<T> list,
                                                                Function<T, Map<String, Object>> row) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (T item : list.getItems()) {
            out.add(row.apply(item));
        }
        Map<String, Object> extras = new LinkedHashMap<>();
        if (list.getMetadata() != null && list.getMetadata().getContinue() != null
                && !list.getMetadata().getContinue().isBlank()) {
            extras.put("continue_token", list.getMetadata().getContinue());
        }
        return new OperationResult.Rows(out, extras);
    }

    private <T extends HasMetadata, L extends KubernetesResourceList<T>> OperationResult info(
            MixedOperation<T, L, ? extends Resource<T>> op, Params p) {
        String ns = p.string("namespace").orElseThrow();
        String name = p.string("name").orElseThrow();
        return guarded(() -> {
            T item = op.inNamespace(ns).withName(name).get();
            if (item == null) {
                return notFound(ns, name);
            }
            return new OperationResult.Document(K8sRows.full(item, SERIALIZATION));
        });
    }

    private OperationResult logs(Params p) {
        String ns = p.string("namespace").orElseThrow();
        String name = p.string("name").orElseThrow();
        int tail = Math.min(p.integer("tail").orElse(K8sCatalog.TAIL_DEFAULT), K8sCatalog.TAIL_MAX);
        return guarded(() -> {
            PodResource pod = client().pods().inNamespace(ns).withName(name);
            if (pod.get() == null) {
                return notFound(ns, name);
            }
            ContainerResource c = p.string("container").map(pod::inContainer).orElse(pod);
            TimeTailPrettyLoggable t = p.bool("previous").orElse(false) ? c.terminated() : c;
            TailPrettyLoggable since = p.string("since").map(s -> t.sinceSeconds(seconds(s))).orElse(t);
            String text = since.tailingLines(tail).getLog();
            List<String> lines = text == null || text.isEmpty() ? List.of() : List.of(text.split("\n", -1));
            if (!lines.isEmpty() && lines.getLast().isEmpty()) {
                lines = lines.subList(0, lines.size() - 1);
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("namespace", ns);
            out.put("pod", name);
            p.string("container").ifPresent(cn -> out.put("container", cn));
            out.put("tail", tail);
            out.put("line_count", lines.size());
            out.put("lines", lines);
            return new OperationResult.Document(out);
        });
    }

    static int seconds(String since) {
        int n = Integer.parseInt(since.substring(0, since.length() - 1));
        return switch (since.charAt(since.length() - 1)) {
            case 's' -> n;
            case 'm' -> n * 60;
            case 'h' -> n * 3600;
            default -> n * 86400;
        };
    }

    private OperationResult ls(Params p) {
        String path = p.string("path").orElse("").replaceAll("^/+|/+$", "");
        return guarded(() -> {
            List<Map<String, Object>> out = new ArrayList<>();
            if (path.isEmpty()) {
                client().namespaces().list().getItems().forEach(n -> out.add(K8sRows.entry("namespace",
                        n.getMetadata().getName(), n.getMetadata().getName())));
                return new OperationResult.Rows(out);
            }
            String[] parts = path.split("/");
            String ns = parts[0];
            if (!LABEL.matcher(ns).matches() || ns.length() > 63) {
                return new OperationResult.Failure(ErrorCode.INVALID_PARAMS, "path must start with a namespace "
                        + "(a DNS-1123 label), got '" + ns + "'", Map.of("field", "path"));
            }
            if (parts.length == 1) {
                if (client().namespaces().withName(ns).get() == null) {
                    return new OperationResult.Failure(ErrorCode.CONNECTOR_ERROR, "no namespace '" + ns + "'",
                            Map.of("status", 404));
                }
                for (String kind : K8sRows.LS_KINDS) {
                    Map<String, Object> e = K8sRows.entry("kind", kind, ns + "/" + kind);
                    e.put("count", names(ns, kind).size());
                    out.add(e);
                }
                return new OperationResult.Rows(out);
            }
            if (!K8sRows.LS_KINDS.contains(parts[1])) {
                return new OperationResult.Failure(ErrorCode.INVALID_PARAMS, "ls knows the kinds " + K8sRows.LS_KINDS
                        + ", not '" + parts[1] + "'", Map.of());
            }
            for (String n : names(ns, parts[1])) {
                out.add(K8sRows.entry(parts[1].replaceAll("s$", "").replace("ingresse", "ingress"), n, path + "/" + n));
            }
            return new OperationResult.Rows(out);
        });
    }

    private List<String> names(String ns, String kind) {
        List<? extends HasMetadata> items = switch (kind) {
            case "pods" -> client().pods().inNamespace(ns).list().getItems();
            case "deployments" -> client().apps().deployments().inNamespace(ns).list().getItems();
            case "services" -> client().services().inNamespace(ns).list().getItems();
            case "ingresses" -> client().network().v1().ingresses().inNamespace(ns).list().getItems();
            default -> client().v1().events().inNamespace(ns).list().getItems();
        };
        return items.stream().map(i -> i.getMetadata().getName()).sorted().toList();
    }

    private OperationResult patch(Params p, String mergePatch) {
        String ns = p.string("namespace").orElseThrow();
        String name = p.string("name").orElseThrow();
        return guarded(() -> {
            var deployment = client().apps().deployments().inNamespace(ns).withName(name);
            if (deployment.get() == null) {
                return notFound(ns, name);
            }
            var patched = deployment.patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("namespace", ns);
            out.put("name", name);
            out.put("replicas", patched.getSpec().getReplicas());
            out.put("generation", patched.getMetadata().getGeneration());
            return new OperationResult.Document(out);
        });
    }

    private String restartPatch() {
        return "{\"spec\":{\"template\":{\"metadata\":{\"annotations\":{\"kubectl.kubernetes.io/restartedAt\":\""
                + ctx.clock().instant() + "\"}}}}}";
    }

    private OperationResult deletePod(Params p) {
        String ns = p.string("namespace").orElseThrow();
        String name = p.string("name").orElseThrow();
        return guarded(() -> {
            PodResource pod = client().pods().inNamespace(ns).withName(name);
            var deleted = p.integer("grace_period_seconds").map(g -> pod.withGracePeriod(g.longValue()).delete())
                    .orElseGet(pod::delete);
            if (deleted.isEmpty()) {
                return notFound(ns, name);
            }
            return new OperationResult.Document(Map.of("namespace", ns, "deleted", name));
        });
    }

    private static OperationResult notFound(String ns, String name) {
        return new OperationResult.Failure(ErrorCode.CONNECTOR_ERROR, "'" + name + "' not found in namespace '" + ns
                + "'", Map.of("status", 404));
    }

    @Override
    public Optional<HttpPreview> preview(OperationRequest request) {
        return K8sPreviews.of(request, ctx.clock());
    }

    /** Runs a call, turning the client's failures into the SPEC's error codes. */
    private <T> T guarded(java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (KubernetesClientException e) {
            throw mapped(e);
        }
    }

    private ConnectorException mapped(KubernetesClientException e) {
        Throwable tls = cause(e, SSLException.class);
        if (tls == null) {
            tls = cause(e, java.security.cert.CertificateException.class);
        }
        if (tls != null) {
            return new ConnectorException(ErrorCode.CONNECTOR_TLS_VERIFY_FAILED, "TLS with " + target.host() + ":"
                    + target.port() + " failed (check the target's verify_tls, tls_ca_pin, tls_server_name)",
                    Map.of("exception_message", String.valueOf(tls.getMessage())), null);
        }
        if (e.getCode() == 401) {
            return new ConnectorException(ErrorCode.CONNECTOR_AUTH_FAILED, "the API server rejected the kubeconfig's "
                    + "credential (401)", Map.of("status", 401), null);
        }
        if (e.getCode() == 403) {
            return new ConnectorException(ErrorCode.CONNECTOR_ERROR, "the kubeconfig's user may not do this (403): "
                    + trimmed(e), Map.of("status", 403), null);
        }
        if (cause(e, HttpTimeoutException.class) != null) {
            return new ConnectorException(ErrorCode.CONNECTOR_TIMEOUT, "the API server did not answer within "
                    + ctx.timeout().toMillis() + " ms", Map.of(), null);
        }
        if (cause(e, ConnectException.class) != null || cause(e, UnknownHostException.class) != null
                || (e.getCode() == 0 && cause(e, java.io.IOException.class) != null)) {
            Throwable io = cause(e, java.io.IOException.class);
            return new ConnectorException(ErrorCode.CONNECTOR_UNREACHABLE, "cannot reach " + target.host() + ":"
                    + target.port() + ": " + (io == null ? e.getMessage() : io.getMessage()), Map.of(), null);
        }
        Map<String, Object> extras = new LinkedHashMap<>();
        if (e.getCode() > 0) {
            extras.put("status", e.getCode());
        }
        return new ConnectorException(ErrorCode.CONNECTOR_ERROR, "the API server answered: " + trimmed(e), extras, null);
    }

    private static String trimmed(KubernetesClientException e) {
        String m = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage()
                : String.valueOf(e.getMessage());
        return m.length() > 500 ? m.substring(0, 500) + "…" : m;
    }

    private static Throwable cause(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return c;
            }
        }
        return null;
    }

    @Override
    public void close() {
        if (client != null) {
            client.close();
        }
    }

    /** Typed access to the validated params. */
    record Params(Map<String, Object> values) {
        Optional<String> string(String name) {
            Object v = values.get(name);
            return v == null ? Optional.empty() : Optional.of(v.toString()).filter(s -> !s.isEmpty());
        }

        Optional<Integer> integer(String name) {
            return values.get(name) instanceof Number n ? Optional.of(n.intValue()) : Optional.empty();
        }

        Optional<Boolean> bool(String name) {
            return values.get(name) instanceof Boolean b ? Optional.of(b) : Optional.empty();
        }
    }
}
