package dev.backplane.plugins.prometheus;

import dev.backplane.plugin.api.ConnectorDescriptor;
import dev.backplane.plugin.api.FixedConnectorFactory;
import dev.backplane.plugins.http.DiscoveringSession;
import java.util.List;

/**
 * Prometheus' HTTP API and Alertmanager's API v2 over the kernel's HTTP client (so the SSRF guard and
 * the target's TLS settings apply). Prometheus publishes no OpenAPI document, hence a typed plugin
 * rather than an ingested spec. Two products: {@code prometheus} (port 9090; versions 2 and 3 share
 * API v1) and {@code alertmanager} (port 9093; API v2 since 0.16). The credential is
 * {@code username} and {@code password} (HTTP Basic, as Prometheus' own web config or a proxy checks
 * it) or {@code token} (a bearer token); a target whose extras say {@code "auth": "none"} sends none.
 * Discovery through a {@code prometheus} target lists its scrape targets ({@link ScrapeTargets}).
 */
public final class PrometheusConnectorFactory extends FixedConnectorFactory {

    static final String IMPL_ID = "prometheus";
    static final String VERSION = "2.x";
    static final String PROMETHEUS = "prometheus";
    static final String ALERTMANAGER = "alertmanager";

    private static final ConnectorDescriptor DESCRIPTOR = new ConnectorDescriptor(IMPL_ID, VERSION,
            List.of(new ConnectorDescriptor.Product(PROMETHEUS, 9090), new ConnectorDescriptor.Product(ALERTMANAGER, 9093)),
            List.of(">=2.0 <4", ">=0.16 <1"), List.of("username", "password", "token"));

    public PrometheusConnectorFactory() {
        super(DESCRIPTOR, PrometheusCatalog.CATALOG, (ctx, target, credential) -> {
            PrometheusSession session = new PrometheusSession(ctx, target, credential);
            // discovery lists a Prometheus server's scrape targets; an Alertmanager has none to offer
            return PROMETHEUS.equals(target.product()) ? new DiscoveringSession(session, session::scrapeTargets)
                    : session;
        });
    }
}
