package dev.backplane.kernel.plugins;

import dev.backplane.kernel.egress.EgressProxy;
import dev.backplane.kernel.egress.TargetTls;
import dev.backplane.plugin.api.CompositeStep;
import dev.backplane.plugin.api.ConnectorContext;
import java.net.http.HttpClient;
import java.text.MessageFormat;
import java.time.Clock;
import java.time.Duration;
import java.util.ResourceBundle;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import javax.net.SocketFactory;
import javax.net.ssl.SSLContext;

/**
 * What the kernel lends a plugin for one session with one target: an HTTP client whose TLS follows
 * the target's fields and whose connections go through the SSRF-checking egress proxy, the TLS
 * context, the SSRF-checking socket factory, a clock, a logger that scrubs the call's secret values,
 * the cancellation signal, the timeout and — for a call made by a tenant — the staging of secrets the
 * call obtained into that tenant's credential store.
 */
public final class KernelConnectorContext implements ConnectorContext {

    /**
     * Stores a secret for the calling tenant at a ref the kernel chooses and answers the ref; bound to
     * one call's tenant by whoever opens the session.
     */
    @FunctionalInterface
    public interface SecretStager {
        /** The stager of calls that have no calling tenant (probes, previews): refuses. */
        SecretStager NONE = (purpose, fields) -> {
            throw new UnsupportedOperationException("this call has no calling tenant to stage a secret for");
        };

        String stage(String purpose, java.util.Map<String, String> fields);
    }

    /**
     * Writes the audit row of one child request of a composite operation under the call's own row; bound
     * to one dispatched call by whoever opens the session.
     */
    @FunctionalInterface
    public interface StepAudit {
        /** The step audit of calls that have no audit row of their own (probes, previews): refuses. */
        StepAudit NONE = childOpId -> {
            throw new UnsupportedOperationException("this call has no audit row to record composite steps under");
        };

        CompositeStep begin(String childOpId);
    }

    private final HttpClient http;
    private final TargetTls tls;
    private final SocketFactory sockets;
    private final Duration timeout;
    private final BooleanSupplier cancelled;
    private final System.Logger logger;
    private final SecretStager stager;
    private final StepAudit steps;
    /** The values staged during this call: scrubbed from log lines like the credential's. */
    private final java.util.List<String> stagedValues = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile SecretScrubber stagedScrubber = SecretScrubber.of(java.util.List.of());

    public KernelConnectorContext(TargetTls tls, EgressProxy egress, SocketFactory sockets, Duration timeout,
                                  BooleanSupplier cancelled, String loggerName, SecretScrubber scrubber) {
        this(tls, httpClient(tls, egress, timeout), sockets, timeout, cancelled, loggerName, scrubber);
    }

    /** A context around an HTTP client built (and cached) for the target's TLS settings. */
    public KernelConnectorContext(TargetTls tls, HttpClient http, SocketFactory sockets, Duration timeout,
                                  BooleanSupplier cancelled, String loggerName, SecretScrubber scrubber) {
        this(tls, http, sockets, timeout, cancelled, loggerName, scrubber, SecretStager.NONE, StepAudit.NONE);
    }

    /**
     * As above, staging secrets through {@code stager} (bound to the calling tenant) and auditing a composite's
     * child requests through {@code steps} (bound to the call's audit row).
     */
    public KernelConnectorContext(TargetTls tls, HttpClient http, SocketFactory sockets, Duration timeout,
                                  BooleanSupplier cancelled, String loggerName, SecretScrubber scrubber,
                                  SecretStager stager, StepAudit steps) {
        this.stager = stager;
        this.steps = steps;
        this.tls = tls;
        this.sockets = sockets;
        this.timeout = timeout;
        this.cancelled = cancelled;
        this.http = http;
        this.logger = new ScrubbingLogger(System.getLogger(loggerName), scrubber) {
            @Override
            String scrub(String text) {
                return stagedScrubber.text(super.scrub(text));
            }
        };
    }

    /** Stages through the call's stager; the values are remembered only to scrub them from what leaves. */
    @Override
    public String stageSecret(String purpose, java.util.Map<String, String> fields) {
        String ref = stager.stage(purpose, fields);
        fields.values().forEach(v -> {
            if (v != null && !v.isEmpty()) {
                stagedValues.add(v);
            }
        });
        stagedScrubber = SecretScrubber.of(java.util.List.copyOf(stagedValues));
        return ref;
    }

    @Override
    public CompositeStep beginStep(String childOpId) {
        return steps.begin(childOpId);
    }

    /** A scrubber of the values this call staged (empty when it staged none). */
    SecretScrubber stagedScrubber() {
        return stagedScrubber;
    }

    /** The client lent to plugins: TLS per target, every connection through the SSRF-checking egress proxy. */
    public static HttpClient httpClient(TargetTls tls, EgressProxy egress, Duration timeout) {
        return HttpClient.newBuilder()
                .proxy(egress.selector())
                .sslContext(tls.context())
                .sslParameters(tls.parameters())
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    @Override
    public HttpClient httpClient() {
        return http;
    }

    @Override
    public SSLContext sslContext() {
        return tls.context();
    }

    @Override
    public javax.net.ssl.SSLParameters sslParameters() {
        return tls.parameters();
    }

    @Override
    public SSLContext sslContext(javax.net.ssl.KeyManager[] clientKeys,
                                 java.util.List<java.security.cert.X509Certificate> credentialCas) {
        return tls.withClientKeys(clientKeys, credentialCas);
    }

    @Override
    public SocketFactory socketFactory() {
        return sockets;
    }

    @Override
    public Clock clock() {
        return Clock.systemUTC();
    }

    @Override
    public System.Logger logger() {
        return logger;
    }

    @Override
    public boolean cancelled() {
        return cancelled.getAsBoolean();
    }

    @Override
    public Duration timeout() {
        return timeout;
    }

    /** Takes the call's credential, in every form it travels in, out of everything logged. */
    static class ScrubbingLogger implements System.Logger {
        private final System.Logger delegate;
        private final SecretScrubber scrubber;

        ScrubbingLogger(System.Logger delegate, SecretScrubber scrubber) {
            this.delegate = delegate;
            this.scrubber = scrubber;
        }

        String scrub(String text) {
            return scrubber.text(text);
        }

        @Override
        public String getName() {
            return delegate.getName();
        }

        @Override
        public boolean isLoggable(Level level) {
            return delegate.isLoggable(level);
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
            delegate.log(level, scrub(String.valueOf(msg)) + (thrown == null ? "" : ": " + scrub(String.valueOf(thrown))));
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            String text = params == null || params.length == 0 ? format : MessageFormat.format(format, params);
            delegate.log(level, scrub(String.valueOf(text)));
        }

        @Override
        public void log(Level level, Supplier<String> msgSupplier) {
            delegate.log(level, scrub(String.valueOf(msgSupplier.get())));
        }
    }
}
