package dev.backplane.plugin.api;

import org.pf4j.ExtensionPoint;

/**
 * The extension of a plugin that executes connectors ingested from vendor API specs (the
 * {@code generic-openapi} plugin). Such a plugin publishes no connector of its own; the kernel hands
 * it each ingested catalog and gets back a {@link ConnectorFactory} that serves it. A plugin jar
 * carrying an engine names it in its manifest attribute {@value #MANIFEST_ATTRIBUTE} instead of
 * {@code Connector-Impl-Id} and {@code Connector-Version}. Annotate the implementation with
 * {@code @org.pf4j.Extension}.
 *
 * @since 1.2
 */
public interface SpecConnectorEngine extends ExtensionPoint {

    /** The manifest attribute naming the engine, for example {@code Connector-Engine: openapi}. */
    String MANIFEST_ATTRIBUTE = "Connector-Engine";

    /** The engine's name ({@code openapi}), equal to the manifest attribute. */
    String engine();

    /**
     * A factory serving one ingested connector. Called once per ingested connector (and again when it
     * is re-ingested); the factory may keep per-target state such as session tokens.
     *
     * @throws ConnectorException when the ingested catalog cannot be served (for example an unknown auth scheme)
     */
    ConnectorFactory connector(IngestedConnector connector);
}
