package dev.backplane.plugins.loki;

import dev.backplane.plugin.api.ConnectorDescriptor;
import dev.backplane.plugin.api.FixedConnectorFactory;
import java.util.List;

/**
 * Grafana Loki's HTTP API ({@code /loki/api/v1}, the same in Loki 2 and 3) over the kernel's HTTP
 * client. Loki publishes no OpenAPI document, hence a typed plugin. Product {@code loki}, port 3100.
 * The credential is {@code username} and {@code password} (HTTP Basic, as the gateway or reverse proxy
 * in front of Loki checks it) or {@code token} (bearer); extras {@code "auth": "none"} sends none, and
 * extras {@code org_id} names the Loki tenant ({@code X-Scope-OrgID}) of a multi-tenant deployment.
 */
public final class LokiConnectorFactory extends FixedConnectorFactory {

    private static final ConnectorDescriptor DESCRIPTOR = new ConnectorDescriptor("loki", "3.x",
            List.of(new ConnectorDescriptor.Product("loki", 3100)), List.of(">=2.0 <4"),
            List.of("username", "password", "token"));

    public LokiConnectorFactory() {
        super(DESCRIPTOR, LokiCatalog.CATALOG, LokiSession::new);
    }
}
