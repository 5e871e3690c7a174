package dev.backplane.kernel.egress;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * The client lent to a plugin for one traced call: every request it sends carries the call's W3C
 * trace context ({@code traceparent}, {@code tracestate}) so a target that traces joins the caller's
 * trace. Made only while tracing is on (the call's span is a valid local one), and not for a target whose
 * extras say {@code "trace_context": false} (a server that refuses unknown headers); otherwise the
 * plugin gets the shared client itself. Everything else — TLS, proxy (the SSRF guard), redirects —
 * is the wrapped client's.
 */
public final class TraceContextHttpClient extends HttpClient {

    private final HttpClient delegate;
    private final Context context;

    private TraceContextHttpClient(HttpClient delegate, Context context) {
        this.delegate = delegate;
        this.context = context;
    }

    /** {@code client}, adding {@code context}'s trace headers when it holds a valid span and the target allows. */
    public static HttpClient of(HttpClient client, Context context, Map<String, Object> targetExtras) {
        boolean allowed = !"false".equalsIgnoreCase(String.valueOf(targetExtras.get("trace_context")));
        SpanContext span = Span.fromContext(context).getSpanContext();
        // a remote span context is a caller's traceparent passed through while tracing is off: not forwarded
        return allowed && span.isValid() && !span.isRemote() ? new TraceContextHttpClient(client, context) : client;
    }

    private HttpRequest traced(HttpRequest request) {
        if (request.headers().firstValue("traceparent").isPresent()) {
            return request; // the plugin set its own
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(request, (name, value) -> true);
        W3CTraceContextPropagator.getInstance().inject(context, b, (builder, k, v) -> builder.setHeader(k, v));
        return b.build();
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
            throws IOException, InterruptedException {
        return delegate.send(traced(request), handler);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        return delegate.sendAsync(traced(request), handler);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
                                                            HttpResponse.PushPromiseHandler<T> push) {
        return delegate.sendAsync(traced(request), handler, push);
    }

    @Override
    public Optional<CookieHandler> cookieHandler() {
        return delegate.cookieHandler();
    }

    @Override
    public Optional<Duration> connectTimeout() {
        return delegate.connectTimeout();
    }

    @Override
    public Redirect followRedirects() {
        return delegate.followRedirects();
    }

    @Override
    public Optional<ProxySelector> proxy() {
        return delegate.proxy();
    }

    @Override
    public SSLContext sslContext() {
        return delegate.sslContext();
    }

    @Override
    public SSLParameters sslParameters() {
        return delegate.sslParameters();
    }

    @Override
    public Optional<Authenticator> authenticator() {
        return delegate.authenticator();
    }

    @Override
    public Version version() {
        return delegate.version();
    }

    @Override
    public Optional<Executor> executor() {
        return delegate.executor();
    }

    /** Closing a call's view must not close the client shared by every call to the target. */
    @Override
    public void close() {
    }

    @Override
    public void shutdown() {
    }

    @Override
    public void shutdownNow() {
    }

    @Override
    public boolean isTerminated() {
        return delegate.isTerminated();
    }

    @Override
    public boolean awaitTermination(Duration duration) throws InterruptedException {
        return delegate.awaitTermination(duration);
    }
}
