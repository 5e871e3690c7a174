package dev.backplane.kernel.targets;

import dev.backplane.kernel.catalog.PluginCalls;
import dev.backplane.kernel.catalog.plugins.LoadedConnector;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.TargetSpec;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * Opens a connector session to a target for exactly one wrapped plugin call: the target's spec, a
 * context with the target's TLS, the SSRF-checking sockets and egress proxy, and a logger that
 * scrubs the credential's values. Used by probe and by the dispatcher alike.
 */
public final class ConnectorSessions {

    private final EgressProxy egress;
    private final GuardedSocketFactory sockets;
    private final Duration timeout;

    public ConnectorSessions(EgressProxy egress, GuardedSocketFactory sockets, Duration timeout) {
        this.egress = egress;
        this.sockets = sockets;
        this.timeout = timeout;
    }

    public static TargetSpec spec(Target t) {
        return new TargetSpec(t.name(), t.product(), t.host(), t.port(), t.fingerprint()
                .map(f -> f.get("version")).map(Object::toString).or(t::version), t.verifyTls(), t.tlsCaPin(),
                t.tlsServerName(), t.extras());
    }

    public <T> T call(LoadedConnector connector, Target t, Credential credential, Function<Connector, T> body) {
        List<String> secrets = credential.names().stream().map(credential::field).toList();
        KernelConnectorContext ctx = new KernelConnectorContext(TargetTls.of(t.host(), t.verifyTls(), t.tlsCaPin(),
                t.tlsServerName()), egress, sockets, timeout, () -> Thread.currentThread().isInterrupted(),
                "connector." + connector.connectorId(), secrets);
        TargetSpec spec = spec(t);
        return PluginCalls.call(connector.pluginId(), connector.classLoader(), timeout, () -> {
            try (Connector c = connector.factory().open(ctx, spec, credential)) {
                return body.apply(c);
            }
        });
    }
}
