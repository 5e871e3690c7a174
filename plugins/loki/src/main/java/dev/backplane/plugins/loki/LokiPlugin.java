package dev.backplane.plugins.loki;

import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.ConnectorPlugin;
import java.util.List;
import org.pf4j.Extension;

/** The log-analytics plugin: one connector, {@code loki-3.x}, for Grafana Loki. */
@Extension
public final class LokiPlugin implements ConnectorPlugin {

    @Override
    public List<ConnectorFactory> connectors() {
        return List.of(new LokiConnectorFactory());
    }
}
