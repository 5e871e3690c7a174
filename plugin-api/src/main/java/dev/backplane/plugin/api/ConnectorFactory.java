package dev.backplane.plugin.api;

/**
 * One connector implementation: what it is, what it can do, and how to open a session to a target.
 * Implementations are stateless and thread-safe; {@link #open} is called per dispatch.
 */
public interface ConnectorFactory {

    /** Identity, products served and secret fields needed. */
    ConnectorDescriptor descriptor();

    /** The operations and groups this connector publishes. */
    Catalog catalog();

    /**
     * Opens a session to {@code target}. The session is closed by the kernel after the call.
     *
     * @param context what the kernel lends the connector (HTTP client, TLS, clock, logger, ...)
     * @param target the target's coordinates and TLS settings
     * @param credential the resolved secret fields; never log or return them
     * @throws ConnectorException when the session cannot be established
     */
    Connector open(ConnectorContext context, TargetSpec target, Credential credential);
}
