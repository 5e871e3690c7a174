package dev.backplane.plugins.prometheus;

import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.ConnectorPlugin;
import java.util.List;
import org.pf4j.Extension;

/** The operations-monitoring plugin: one connector, {@code prometheus-2.x}, for Prometheus and Alertmanager. */
@Extension
public final class PrometheusPlugin implements ConnectorPlugin {

    @Override
    public List<ConnectorFactory> connectors() {
        return List.of(new PrometheusConnectorFactory());
    }
}
