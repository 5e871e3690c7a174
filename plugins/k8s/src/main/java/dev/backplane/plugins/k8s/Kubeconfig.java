package dev.backplane.plugins.k8s;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import io.fabric8.kubernetes.api.model.AuthInfo;
import io.fabric8.kubernetes.api.model.Cluster;
import io.fabric8.kubernetes.api.model.Config;
import io.fabric8.kubernetes.api.model.Context;
import io.fabric8.kubernetes.api.model.NamedAuthInfo;
import io.fabric8.kubernetes.api.model.NamedCluster;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What this connector takes from a kubeconfig: the current context's user (bearer token, client
 * certificate and key, or basic auth) and its cluster's CA. Parsed as data only: {@code exec} and
 * {@code auth-provider} plugins, token files and certificate paths are refused — they would run
 * programs or read files on the backplane host. The cluster's {@code server} is ignored: the target's
 * host and port decide where the connector connects (they passed the SSRF guard).
 */
record Kubeconfig(Optional<String> token, Optional<String> clientCertPem, Optional<String> clientKeyPem,
                  Optional<String> username, Optional<String> password, List<X509Certificate> clusterCas) {

    /** Never prints credential material. */
    @Override
    public String toString() {
        return "Kubeconfig[auth=" + (token.isPresent() ? "token" : clientCertPem.isPresent() ? "client-certificate"
                : username.isPresent() ? "basic" : "none") + ", cluster CAs=" + clusterCas.size() + "]";
    }

    static Kubeconfig parse(String document, KubernetesSerialization serialization) {
        if (document == null || document.isBlank()) {
            throw invalid("the kubeconfig field is empty");
        }
        Config config;
        try {
            config = serialization.unmarshal(document, Config.class);
        } catch (RuntimeException e) {
            throw invalid("the kubeconfig field is not a kubeconfig document (YAML or JSON)");
        }
        if (config == null) {
            throw invalid("the kubeconfig field is not a kubeconfig document (YAML or JSON)");
        }
        NamedContext context = pickContext(config);
        Context ctx = context.getContext();
        AuthInfo user = find(config.getUsers(), NamedAuthInfo::getName, ctx.getUser())
                .map(NamedAuthInfo::getUser).orElseThrow(() -> invalid("context '" + context.getName()
                        + "' names user '" + ctx.getUser() + "', which the kubeconfig does not define"));
        Cluster cluster = find(config.getClusters(), NamedCluster::getName, ctx.getCluster())
                .map(NamedCluster::getCluster).orElseThrow(() -> invalid("context '" + context.getName()
                        + "' names cluster '" + ctx.getCluster() + "', which the kubeconfig does not define"));
        if (user.getExec() != null) {
            throw invalid("user '" + ctx.getUser() + "' uses an exec credential plugin; the backplane runs no programs "
                    + "for credentials — stage a kubeconfig with a token or client certificate (e.g. a service account token)");
        }
        if (user.getAuthProvider() != null) {
            throw invalid("user '" + ctx.getUser() + "' uses an auth-provider plugin; stage a kubeconfig with a token "
                    + "or client certificate instead");
        }
        if (user.getTokenFile() != null || user.getClientCertificate() != null || user.getClientKey() != null
                || cluster.getCertificateAuthority() != null) {
            throw invalid("the kubeconfig refers to files (token-file, client-certificate, client-key or "
                    + "certificate-authority); embed them instead (token, client-certificate-data, client-key-data, "
                    + "certificate-authority-data), e.g. kubectl config view --raw --flatten --minify");
        }
        Optional<String> cert = decoded(user.getClientCertificateData(), "client-certificate-data");
        Optional<String> key = decoded(user.getClientKeyData(), "client-key-data");
        if (cert.isPresent() != key.isPresent()) {
            throw invalid("client-certificate-data and client-key-data go together; the kubeconfig has only one");
        }
        Optional<String> token = Optional.ofNullable(user.getToken()).filter(t -> !t.isBlank());
        Optional<String> username = Optional.ofNullable(user.getUsername()).filter(u -> !u.isBlank());
        if (token.isEmpty() && cert.isEmpty() && username.isEmpty()) {
            throw invalid("user '" + ctx.getUser() + "' has no credential (token, client certificate or username)");
        }
        List<X509Certificate> cas = new ArrayList<>();
        Optional<String> caPem = decoded(cluster.getCertificateAuthorityData(), "certificate-authority-data");
        if (caPem.isPresent()) {
            try {
                for (var c : CertificateFactory.getInstance("X.509").generateCertificates(
                        new ByteArrayInputStream(caPem.get().getBytes(StandardCharsets.US_ASCII)))) {
                    cas.add((X509Certificate) c);
                }
            } catch (CertificateException e) {
                throw invalid("certificate-authority-data is not a PEM certificate");
            }
            if (cas.isEmpty()) {
                throw invalid("certificate-authority-data is not a PEM certificate");
            }
        }
        return new Kubeconfig(token, cert, key, username, Optional.ofNullable(user.getPassword()), List.copyOf(cas));
    }

    private static NamedContext pickContext(Config config) {
        List<NamedContext> contexts = config.getContexts() == null ? List.of() : config.getContexts();
        String current = config.getCurrentContext();
        if (current != null && !current.isBlank()) {
            return find(contexts, NamedContext::getName, current).filter(c -> c.getContext() != null)
                    .orElseThrow(() -> invalid("current-context '" + current + "' is not defined in the kubeconfig"));
        }
        if (contexts.size() == 1 && contexts.getFirst().getContext() != null) {
            return contexts.getFirst();
        }
        throw invalid("the kubeconfig sets no current-context and has " + contexts.size() + " contexts");
    }

    private static <T> Optional<T> find(List<T> items, java.util.function.Function<T, String> name, String wanted) {
        if (items == null || wanted == null) {
            return Optional.empty();
        }
        return items.stream().filter(i -> wanted.equals(name.apply(i))).findFirst();
    }

    private static Optional<String> decoded(String base64, String field) {
        if (base64 == null || base64.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new String(Base64.getDecoder().decode(base64.replaceAll("\\s", "")),
                    StandardCharsets.US_ASCII));
        } catch (IllegalArgumentException e) {
            throw invalid(field + " is not base64");
        }
    }

    /** A kubeconfig the connector cannot use: connector_error, never echoing the document. */
    private static ConnectorException invalid(String why) {
        return new ConnectorException(ErrorCode.CONNECTOR_ERROR, "unusable kubeconfig: " + why,
                Map.of("credential_field", K8sConnectorFactory.KUBECONFIG), null);
    }
}
