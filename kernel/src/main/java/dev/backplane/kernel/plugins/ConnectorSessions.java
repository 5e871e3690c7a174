package dev.backplane.kernel.plugins;

import dev.backplane.kernel.egress.EgressProxy;
import dev.backplane.kernel.egress.GuardedSocketFactory;
import dev.backplane.kernel.egress.TargetTls;
import dev.backplane.kernel.egress.TraceContextHttpClient;
import dev.backplane.kernel.plugins.LoadedConnector;
import dev.backplane.kernel.plugins.PluginCalls;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.TargetSpec;
import io.opentelemetry.context.Context;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import javax.net.ssl.X509TrustManager;

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
    private final Duration compositeTimeout;
    private final com.github.benmanes.caffeine.cache.Cache<TlsKey, Transport> transports;
    private final Optional<X509TrustManager> roots;

    public ConnectorSessions(EgressProxy egress, GuardedSocketFactory sockets, Duration timeout) {
        this(egress, sockets, timeout, timeout);
    }

    /**
     * @param timeout how long one plugin call may take
     * @param compositeTimeout how long a composite operation's call may take: it sends several requests and may
     *     wait between them (Argo CD's sync and wait polls until the application is healthy)
     */
    public ConnectorSessions(EgressProxy egress, GuardedSocketFactory sockets, Duration timeout,
                             Duration compositeTimeout) {
        this(egress, sockets, timeout, compositeTimeout, Optional.empty());
    }

    /**
     * As above; {@code roots} (when given) is what a target's chain is checked against without a {@code tls_ca_pin}:
     * the kernel's outbound trust (the JDK's roots and the private CA bundle of {@code tls.ca-bundle}).
     */
    public ConnectorSessions(EgressProxy egress, GuardedSocketFactory sockets, Duration timeout,
                             Duration compositeTimeout, Optional<X509TrustManager> roots) {
        this.roots = roots;
        this.egress = egress;
        this.sockets = sockets;
        this.timeout = timeout;
        this.compositeTimeout = compositeTimeout;
        this.transports = com.github.benmanes.caffeine.cache.Caffeine.newBuilder().maximumSize(2_000)
                .expireAfterAccess(Duration.ofMinutes(30)).build();
    }

    public <T> T call(LoadedConnector connector, TargetSpec spec, Credential credential, Function<Connector, T> body) {
        return call(connector, spec, credential, KernelConnectorContext.SecretStager.NONE, body);
    }

    /**
     * As above, for a call made by a tenant: {@code stager} stores what the plugin stages
     * ({@code ConnectorContext.stageSecret}) in that tenant's credential store, and the staged values are
     * scrubbed from the result, errors and log lines like the credential's.
     */
    public <T> T call(LoadedConnector connector, TargetSpec spec, Credential credential,
                      KernelConnectorContext.SecretStager stager, Function<Connector, T> body) {
        return call(connector, spec, credential, new Lent(stager, KernelConnectorContext.StepAudit.NONE, false), body);
    }

    /**
     * What a dispatched call lends the plugin beyond the session.
     *
     * @param stager stores what the plugin stages in the calling tenant's credential store
     * @param steps audits the child requests of a composite operation under the call's row
     * @param composite the call runs a composite operation, which gets the composite timeout
     */
    public record Lent(KernelConnectorContext.SecretStager stager, KernelConnectorContext.StepAudit steps,
                       boolean composite) {
    }

    /** As above, with everything a dispatched call lends. */
    public <T> T call(LoadedConnector connector, TargetSpec spec, Credential credential, Lent lent,
                      Function<Connector, T> body) {
        Duration timeout = lent.composite() ? compositeTimeout : this.timeout;
        SecretScrubber scrubber = SecretScrubber.of(credential);
        Transport transport = transports.get(new TlsKey(spec.host(), spec.verifyTls(), spec.tlsCaPin(), spec.tlsServerName()), k -> {
            TargetTls tls = roots.map(r -> TargetTls.of(k.host(), k.verifyTls(), k.caPin(), k.serverName(), r))
                    .orElseGet(() -> TargetTls.of(k.host(), k.verifyTls(), k.caPin(), k.serverName()));
            return new Transport(tls, KernelConnectorContext.httpClient(tls, egress, this.timeout));
        });
        // the call's trace context rides on the lent client's requests (W3C traceparent) while tracing is on
        HttpClient http = TraceContextHttpClient.of(transport.http(), Context.current(), spec.extras());
        KernelConnectorContext ctx = new KernelConnectorContext(transport.tls(), http, sockets, timeout,
                () -> Thread.currentThread().isInterrupted(), "connector." + connector.connectorId(), scrubber,
                lent.stager(), lent.steps());
        try {
            // whatever comes back — a result, a failure, a fingerprint, candidates — leaves without the credential
            return ctx.stagedScrubber().result(scrubber.result(PluginCalls.call(connector.pluginId(),
                    connector.classLoader(), timeout, () -> {
                        try (Connector c = connector.factory().open(ctx, spec, credential)) {
                            return body.apply(c);
                        }
                    })));
        } catch (ConnectorException e) {
            throw ctx.stagedScrubber().exception(scrubber.exception(e));
        }
    }
}
