package dev.backplane.plugins.openapi;

import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.Discovery;
import dev.backplane.plugin.api.Fingerprint;
import dev.backplane.plugin.api.HttpPreview;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.OperationResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The session of an ingested connector whose catalog index entry declares discovery: the plain session plus
 * {@link Discovery} ({@link SpecMembers}). A connector without the declaration gets the plain session, so
 * discovery through it is answered "not supported by this connector".
 */
final class DiscoveringSession implements Connector, Discovery {

    private final OpenApiSession session;

    DiscoveringSession(OpenApiSession session) {
        this.session = session;
    }

    @Override
    public List<Map<String, Object>> discover(String product) {
        return session.members();
    }

    @Override
    public Fingerprint probe() {
        return session.probe();
    }

    @Override
    public OperationResult invoke(OperationRequest request) {
        return session.invoke(request);
    }

    @Override
    public Optional<HttpPreview> preview(OperationRequest request) {
        return session.preview(request);
    }

    @Override
    public void close() {
        session.close();
    }

    @Override
    public String toString() {
        return session.toString();
    }
}
