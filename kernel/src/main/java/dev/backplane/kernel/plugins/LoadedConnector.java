package dev.backplane.kernel.plugins;

import static java.util.Objects.requireNonNull;

import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.ConnectorDescriptor;
import dev.backplane.plugin.api.ConnectorFactory;
import java.nio.file.Path;

/**
 * A connector implementation loaded from a plugin jar, with its descriptor and catalog read once.
 *
 * @param pluginId PF4J plugin id, equal to the connector id
 * @param pluginVersion the plugin's own (semantic) version
 * @param jar where it was loaded from
 * @param factory the implementation
 * @param descriptor what it is
 * @param catalog what it can do
 * @param classLoader the plugin's class loader (context class loader for calls into it)
 */
public record LoadedConnector(String pluginId, String pluginVersion, Path jar, ConnectorFactory factory,
                              ConnectorDescriptor descriptor, Catalog catalog, ClassLoader classLoader) {
    public LoadedConnector {
        requireNonNull(pluginId, "pluginId is null");
        requireNonNull(factory, "factory is null");
        requireNonNull(descriptor, "descriptor is null");
        requireNonNull(catalog, "catalog is null");
        requireNonNull(classLoader, "classLoader is null");
    }

    public String connectorId() {
        return descriptor.connectorId();
    }
}
