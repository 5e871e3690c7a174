package dev.backplane.plugin.api;

import java.util.Optional;

/**
 * A session to one target, opened per dispatch and closed after it. Calls come from the kernel on a
 * virtual thread with the plugin's class loader as context class loader, under a timeout.
 */
public interface Connector extends AutoCloseable {

    /**
     * Identifies the target: vendor, the most specific product detectable, version.
     *
     * @throws ConnectorException when the target cannot be reached or refuses the credential
     */
    Fingerprint probe();

    /**
     * Runs one operation. Expected failures are returned as {@link OperationResult.Failure} or thrown
     * as {@link ConnectorException}; anything else thrown becomes {@code connector_error}.
     */
    OperationResult invoke(OperationRequest request);

    /**
     * The single HTTP request an HTTP-shaped operation would send, or the command line and input a
     * {@link OperationShape.Command} operation would run (since 1.4), with secrets redacted; empty for
     * typed and composite operations. Nothing is sent.
     */
    default Optional<HttpPreview> preview(OperationRequest request) {
        return Optional.empty();
    }

    /** Releases the session; must not throw for an already closed session. */
    @Override
    void close();
}
