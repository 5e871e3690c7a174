package dev.backplane.kernel.targets;

import dev.backplane.kernel.catalog.PluginCalls;
import dev.backplane.kernel.catalog.plugins.LoadedConnector;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.OperationResult;
import dev.backplane.plugin.api.TargetSpec;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Opens a connector session to a target for exactly one wrapped plugin call: the target's spec, a
 * context with the target's TLS, the SSRF-checking sockets and egress proxy, and a logger that
 * scrubs the credential's values. Used by probe and by the dispatcher alike.
 */
public final class ConnectorSessions {

    /** What a target's TLS context and HTTP client depend on; equal keys share them. */
    private record TlsKey(String host, boolean verifyTls, java.util.Optional<String> caPin,
                          java.util.Optional<String> serverName) {
    }

    /** A target's TLS context and the HTTP client built on it (building either costs milliseconds). */
    private record Transport(TargetTls tls, java.net.http.HttpClient http) {
    }

    private final EgressProxy egress;
    private final GuardedSocketFactory sockets;
    private final Duration timeout;
    private final com.github.benmanes.caffeine.cache.Cache<TlsKey, Transport> transports;

    public ConnectorSessions(EgressProxy egress, GuardedSocketFactory sockets, Duration timeout) {
        this.egress = egress;
        this.sockets = sockets;
        this.timeout = timeout;
        this.transports = com.github.benmanes.caffeine.cache.Caffeine.newBuilder().maximumSize(2_000)
                .expireAfterAccess(Duration.ofMinutes(30)).build();
    }

    public static TargetSpec spec(Target t) {
        return new TargetSpec(t.name(), t.product(), t.host(), t.port(), t.fingerprint()
                .map(f -> f.get("version")).map(Object::toString).or(t::version), t.verifyTls(), t.tlsCaPin(),
                t.tlsServerName(), t.extras());
    }

    public <T> T call(LoadedConnector connector, Target t, Credential credential, Function<Connector, T> body) {
        List<String> secrets = credential.names().stream().map(credential::field).toList();
        Transport transport = transports.get(new TlsKey(t.host(), t.verifyTls(), t.tlsCaPin(), t.tlsServerName()), k -> {
            TargetTls tls = TargetTls.of(k.host(), k.verifyTls(), k.caPin(), k.serverName());
            return new Transport(tls, KernelConnectorContext.httpClient(tls, egress, timeout));
        });
        KernelConnectorContext ctx = new KernelConnectorContext(transport.tls(), transport.http(), sockets, timeout,
                () -> Thread.currentThread().isInterrupted(), "connector." + connector.connectorId(), secrets);
        TargetSpec spec = spec(t);
        try {
            T result = PluginCalls.call(connector.pluginId(), connector.classLoader(), timeout, () -> {
                try (Connector c = connector.factory().open(ctx, spec, credential)) {
                    return body.apply(c);
                }
            });
            if (result instanceof OperationResult.Failure f) {
                @SuppressWarnings("unchecked")
                T scrubbed = (T) new OperationResult.Failure(f.code(), scrub(f.message(), secrets),
                        scrub(f.extras(), secrets));
                return scrubbed;
            }
            return result;
        } catch (ConnectorException e) {
            throw scrubbed(e, secrets);
        }
    }

    /**
     * A plugin's error with every value of the credential it was given replaced by {@code ***} in its
     * message and extras (a driver or vendor library may put a password or token in an exception
     * message). The cause chain, whose messages could carry them too, is not kept.
     */
    static ConnectorException scrubbed(ConnectorException e, List<String> secrets) {
        String message = scrub(e.getMessage() == null ? "" : e.getMessage(), secrets);
        Map<String, Object> extras = scrub(e.extras(), secrets);
        if (message.equals(e.getMessage()) && extras.equals(e.extras()) && e.getCause() == null) {
            return e;
        }
        return new ConnectorException(e.code(), message, extras, null);
    }

    static String scrub(String text, List<String> secrets) {
        String out = text;
        for (String s : secrets) {
            if (s != null && s.length() >= 4) {
                out = out.replace(s, "***");
            }
        }
        return out;
    }

    static Map<String, Object> scrub(Map<String, Object> extras, List<String> secrets) {
        Map<String, Object> out = new LinkedHashMap<>();
        extras.forEach((k, v) -> out.put(k, v instanceof String text ? scrub(text, secrets) : v));
        return out;
    }
}
