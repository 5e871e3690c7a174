package dev.backplane.plugins.dns;

import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.ConnectorPlugin;
import java.util.List;
import org.pf4j.Extension;

/** The DNS-over-SSH connector plugin: one connector, {@code dns-ssh-9.x}, for product {@code bind}. */
@Extension
public final class DnsPlugin implements ConnectorPlugin {

    @Override
    public List<ConnectorFactory> connectors() {
        return List.of(new DnsConnectorFactory());
    }
}
