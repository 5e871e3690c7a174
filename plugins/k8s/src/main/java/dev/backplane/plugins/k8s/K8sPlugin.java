package dev.backplane.plugins.k8s;

import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.ConnectorPlugin;
import java.util.List;
import org.pf4j.Extension;

/** The Kubernetes connector plugin: one connector, {@code k8s-1.x}, for product {@code k8s}. */
@Extension
public final class K8sPlugin implements ConnectorPlugin {

    @Override
    public List<ConnectorFactory> connectors() {
        return List.of(new K8sConnectorFactory());
    }
}
