package dev.backplane.plugins.k8s;

import dev.backplane.plugin.api.ConnectorDescriptor;
import dev.backplane.plugin.api.FixedConnectorFactory;
import java.util.List;

/**
 * Kubernetes through the fabric8 client, which lives in this plugin's class loader only. The
 * credential is one field, {@code kubeconfig}, holding a whole kubeconfig document; the target's
 * host, port and TLS fields decide where and how to connect, never the kubeconfig's {@code server}.
 */
public final class K8sConnectorFactory extends FixedConnectorFactory {

    static final String IMPL_ID = "k8s";
    static final String VERSION = "1.x";
    static final String PRODUCT = "k8s";
    static final int DEFAULT_PORT = 6443;
    static final String KUBECONFIG = "kubeconfig";

    private static final ConnectorDescriptor DESCRIPTOR = new ConnectorDescriptor(IMPL_ID, VERSION,
            List.of(new ConnectorDescriptor.Product(PRODUCT, DEFAULT_PORT)), List.of("1.x"), List.of(KUBECONFIG));

    public K8sConnectorFactory() {
        super(DESCRIPTOR, K8sCatalog.CATALOG, K8sSession::new);
    }
}
