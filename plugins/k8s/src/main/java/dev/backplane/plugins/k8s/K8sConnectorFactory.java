package dev.backplane.plugins.k8s;

import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorContext;
import dev.backplane.plugin.api.ConnectorDescriptor;
import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.TargetSpec;
import java.util.List;

/**
 * Kubernetes through the fabric8 client, which lives in this plugin's class loader only. The
 * credential is one field, {@code kubeconfig}, holding a whole kubeconfig document; the target's
 * host, port and TLS fields decide where and how to connect, never the kubeconfig's {@code server}.
 */
public final class K8sConnectorFactory implements ConnectorFactory {

    static final String IMPL_ID = "k8s";
    static final String VERSION = "1.x";
    static final String PRODUCT = "k8s";
    static final int DEFAULT_PORT = 6443;
    static final String KUBECONFIG = "kubeconfig";

    private static final ConnectorDescriptor DESCRIPTOR = new ConnectorDescriptor(IMPL_ID, VERSION,
            List.of(new ConnectorDescriptor.Product(PRODUCT, DEFAULT_PORT)), List.of("1.x"), List.of(KUBECONFIG));

    @Override
    public ConnectorDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Catalog catalog() {
        return K8sCatalog.CATALOG;
    }

    @Override
    public Connector open(ConnectorContext context, TargetSpec target, Credential credential) {
        return new K8sSession(context, target, credential);
    }
}
