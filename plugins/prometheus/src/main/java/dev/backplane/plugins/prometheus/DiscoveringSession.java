package dev.backplane.plugins.prometheus;

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
 * A session with a {@code prometheus} target, which also offers {@link Discovery}: its scrape targets
 * ({@link ScrapeTargets}). An {@code alertmanager} target gets the plain session, so discovery through one
 * is answered "not supported by this connector".
 */
final class DiscoveringSession implements Connector, Discovery {

    private final PrometheusSession session;

    DiscoveringSession(PrometheusSession session) {
        this.session = session;
    }

    @Override
    public List<Map<String, Object>> discover(String product) {
        return session.scrapeTargets();
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
}
