package dev.backplane.plugins.vault;

import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.ConnectorPlugin;
import java.util.List;
import org.pf4j.Extension;

/** The secret-store connector plugin: one connector, {@code vault-1.x}, for products {@code vault} and {@code openbao}. */
@Extension
public final class VaultPlugin implements ConnectorPlugin {

    @Override
    public List<ConnectorFactory> connectors() {
        return List.of(new VaultConnectorFactory());
    }
}
