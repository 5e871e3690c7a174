package dev.backplane.plugins.prometheus;

import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorContext;
import dev.backplane.plugin.api.ConnectorDescriptor;
import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.TargetSpec;
import java.util.List;

/**
 * Prometheus' HTTP API and Alertmanager's API v2 over the kernel's HTTP client (so the SSRF guard and
 * the target's TLS settings apply). Prometheus publishes no OpenAPI document, hence a typed plugin
 * rather than an ingested spec. Two products: {@code prometheus} (port 9090; versions 2 and 3 share
 * API v1) and {@code alertmanager} (port 9093; API v2 since 0.16). The credential is
 * {@code username} and {@code password} (HTTP Basic, as Prometheus' own web config or a proxy checks
 * it) or {@code token} (a bearer token); a target whose extras say {@code "auth": "none"} sends none.
 */
public final class PrometheusConnectorFactory implements ConnectorFactory {

    static final String IMPL_ID = "prometheus";
    static final String VERSION = "2.x";
    static final String PROMETHEUS = "prometheus";
    static final String ALERTMANAGER = "alertmanager";

    private static final ConnectorDescriptor DESCRIPTOR = new ConnectorDescriptor(IMPL_ID, VERSION,
            List.of(new ConnectorDescriptor.Product(PROMETHEUS, 9090), new ConnectorDescriptor.Product(ALERTMANAGER, 9093)),
            List.of(">=2.0 <4", ">=0.16 <1"), List.of("username", "password", "token"));

    @Override
    public ConnectorDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Catalog catalog() {
        return PrometheusCatalog.CATALOG;
    }

    @Override
    public Connector open(ConnectorContext context, TargetSpec target, Credential credential) {
        return new PrometheusSession(context, target, credential);
    }
}
