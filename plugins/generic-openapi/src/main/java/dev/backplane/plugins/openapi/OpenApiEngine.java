package dev.backplane.plugins.openapi;

import static java.util.Objects.requireNonNull;

import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.IngestedConnector;
import dev.backplane.plugin.api.SpecConnectorEngine;
import org.pf4j.Extension;

/**
 * The {@code openapi} engine: serves connectors ingested from vendor OpenAPI specs by turning each
 * operation's params into one HTTP request against the target. Listed in {@code META-INF/extensions.idx}.
 */
@Extension
public final class OpenApiEngine implements SpecConnectorEngine {

    /** The engine name, equal to the jar's {@code Connector-Engine} manifest attribute. */
    public static final String ENGINE = "openapi";

    @Override
    public String engine() {
        return ENGINE;
    }

    @Override
    public ConnectorFactory connector(IngestedConnector connector) {
        requireNonNull(connector, "connector is null");
        return new OpenApiConnectorFactory(connector);
    }
}
