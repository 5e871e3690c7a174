package dev.backplane.kernel.plugins;

import static java.util.Objects.requireNonNull;

import dev.backplane.plugin.api.SpecConnectorEngine;
import java.nio.file.Path;

/**
 * A spec engine loaded from a plugin jar (the generic-openapi plugin): it serves connectors ingested
 * from vendor API specs.
 *
 * @param pluginId PF4J plugin id
 * @param pluginVersion the plugin's own version
 * @param jar where it was loaded from
 * @param name the engine's name ({@code openapi})
 * @param engine the implementation
 * @param classLoader the plugin's class loader
 */
public record LoadedEngine(String pluginId, String pluginVersion, Path jar, String name, SpecConnectorEngine engine,
                           ClassLoader classLoader) {
    public LoadedEngine {
        requireNonNull(pluginId, "pluginId is null");
        requireNonNull(name, "name is null");
        requireNonNull(engine, "engine is null");
        requireNonNull(classLoader, "classLoader is null");
    }
}
