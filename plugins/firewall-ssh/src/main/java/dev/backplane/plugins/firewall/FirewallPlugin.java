package dev.backplane.plugins.firewall;

import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.ConnectorPlugin;
import java.util.List;
import org.pf4j.Extension;

/** The firewall-over-SSH connector plugin: one connector, {@code firewall-ssh-1.x}, for product {@code nftables}. */
@Extension
public final class FirewallPlugin implements ConnectorPlugin {

    @Override
    public List<ConnectorFactory> connectors() {
        return List.of(new FirewallConnectorFactory());
    }
}
