package dev.backplane.plugins.http;

import static java.util.Objects.requireNonNull;

import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.Discovery;
import dev.backplane.plugin.api.Fingerprint;
import dev.backplane.plugin.api.HttpPreview;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.OperationResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A session that also offers {@link Discovery}: everything else is the plain session's, discovery is what
 * {@code members} lists. A plugin hands this out only for the targets that can be discovered from, and the plain
 * session for the others, so discovery through those is answered "not supported by this connector".
 */
public final class DiscoveringSession implements Connector, Discovery {

    private final Connector session;
    private final Supplier<List<Map<String, Object>>> members;

    public DiscoveringSession(Connector session, Supplier<List<Map<String, Object>>> members) {
        this.session = requireNonNull(session, "session is null");
        this.members = requireNonNull(members, "members is null");
    }

    @Override
    public List<Map<String, Object>> discover(String product) {
        return members.get();
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

    /** The plain session's, so this shows nothing the session itself does not (never its credential). */
    @Override
    public String toString() {
        return session.toString();
    }
}
