package dev.backplane.kernel.testing;

import dev.backplane.client.ApiClient;
import dev.backplane.client.ApiException;
import dev.backplane.client.support.SvcClients;
import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;

/**
 * The generated client ({@code svc-client}) pointed at a {@link TestKernel}: strict — an answer with a property the
 * document does not describe, or without one it requires, fails to deserialize — and every exchange is held to the
 * document by {@link ApiContract}, as {@link TestKernel#send} holds its own.
 */
public final class GeneratedClient {

    private GeneratedClient() {
    }

    /** An {@link ApiClient} of {@code kernel} sending {@code token}; pass it to the generated API classes. */
    public static ApiClient of(TestKernel kernel, String token) {
        ApiClient client = SvcClients.create(URI.create(kernel.url()), () -> token, true);
        HttpClient.Builder builder = ApiClient.createDefaultHttpClientBuilder().connectTimeout(Duration.ofSeconds(5));
        return client.setHttpClientBuilder(new ContractBuilder(builder)).setReadTimeout(Duration.ofSeconds(30));
    }

    /** SPEC's error code of {@code e} after checking its status, for {@code assertThatThrownBy(...).satisfies(...)}. */
    public static String errorCode(Throwable e, int status) {
        if (!(e instanceof ApiException api)) {
            throw new AssertionError("not an ApiException", e);
        }
        if (api.getCode() != status) {
            throw new AssertionError("HTTP " + api.getCode() + ", expected " + status + ": " + api.getResponseBody());
        }
        return SvcClients.errorCode(api);
    }

    /** Builds the JDK client wrapped so that each exchange passes {@link ApiContract#verify}. */
    private record ContractBuilder(HttpClient.Builder delegate) implements HttpClient.Builder {
        @Override public HttpClient.Builder cookieHandler(CookieHandler h) { delegate.cookieHandler(h); return this; }
        @Override public HttpClient.Builder connectTimeout(Duration d) { delegate.connectTimeout(d); return this; }
        @Override public HttpClient.Builder sslContext(SSLContext c) { delegate.sslContext(c); return this; }
        @Override public HttpClient.Builder sslParameters(SSLParameters p) { delegate.sslParameters(p); return this; }
        @Override public HttpClient.Builder executor(Executor e) { delegate.executor(e); return this; }
        @Override public HttpClient.Builder followRedirects(HttpClient.Redirect r) { delegate.followRedirects(r); return this; }
        @Override public HttpClient.Builder version(HttpClient.Version v) { delegate.version(v); return this; }
        @Override public HttpClient.Builder priority(int p) { delegate.priority(p); return this; }
        @Override public HttpClient.Builder proxy(ProxySelector p) { delegate.proxy(p); return this; }
        @Override public HttpClient.Builder authenticator(Authenticator a) { delegate.authenticator(a); return this; }

        @Override
        public HttpClient build() {
            return new ContractClient(delegate.build());
        }
    }

    /** Reads each answer whole, verifies the exchange, then hands the body to the caller's handler. */
    private static final class ContractClient extends HttpClient {
        private final HttpClient delegate;

        ContractClient(HttpClient delegate) {
            this.delegate = delegate;
        }

        @Override
        public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
                throws IOException, InterruptedException {
            HttpResponse<byte[]> r = delegate.send(request, HttpResponse.BodyHandlers.ofByteArray());
            String path = request.uri().getRawPath() + (request.uri().getRawQuery() == null ? ""
                    : "?" + request.uri().getRawQuery());
            ApiContract.verify(new ApiContract.Exchange(request.method(), path, body(request), r.statusCode(),
                    r.headers().firstValue("Content-Type").orElse(null), new String(r.body(), StandardCharsets.UTF_8)));
            return new Replayed<>(r, handOver(r, handler));
        }

        private static String body(HttpRequest request) {
            Optional<HttpRequest.BodyPublisher> publisher = request.bodyPublisher();
            if (publisher.isEmpty() || publisher.get().contentLength() == 0) {
                return null;
            }
            List<ByteBuffer> parts = new ArrayList<>();
            CompletableFuture<Void> done = new CompletableFuture<>();
            publisher.get().subscribe(new Flow.Subscriber<>() {
                @Override public void onSubscribe(Flow.Subscription s) { s.request(Long.MAX_VALUE); }
                @Override public void onNext(ByteBuffer item) { parts.add(item); }
                @Override public void onError(Throwable t) { done.completeExceptionally(t); }
                @Override public void onComplete() { done.complete(null); }
            });
            done.join();
            StringBuilder text = new StringBuilder();
            parts.forEach(b -> text.append(StandardCharsets.UTF_8.decode(b)));
            return text.toString();
        }

        private static <T> T handOver(HttpResponse<byte[]> r, HttpResponse.BodyHandler<T> handler) {
            HttpResponse.BodySubscriber<T> subscriber = handler.apply(new HttpResponse.ResponseInfo() {
                @Override public int statusCode() { return r.statusCode(); }
                @Override public HttpHeaders headers() { return r.headers(); }
                @Override public Version version() { return r.version(); }
            });
            subscriber.onSubscribe(new Flow.Subscription() {
                @Override public void request(long n) { }
                @Override public void cancel() { }
            });
            subscriber.onNext(List.of(ByteBuffer.wrap(r.body())));
            subscriber.onComplete();
            return subscriber.getBody().toCompletableFuture().join();
        }

        @Override
        public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
            throw new UnsupportedOperationException("the tests call the synchronous API");
        }

        @Override
        public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
                HttpResponse.PushPromiseHandler<T> push) {
            throw new UnsupportedOperationException("the tests call the synchronous API");
        }

        @Override public Optional<CookieHandler> cookieHandler() { return delegate.cookieHandler(); }
        @Override public Optional<Duration> connectTimeout() { return delegate.connectTimeout(); }
        @Override public Redirect followRedirects() { return delegate.followRedirects(); }
        @Override public Optional<ProxySelector> proxy() { return delegate.proxy(); }
        @Override public SSLContext sslContext() { return delegate.sslContext(); }
        @Override public SSLParameters sslParameters() { return delegate.sslParameters(); }
        @Override public Optional<Authenticator> authenticator() { return delegate.authenticator(); }
        @Override public Version version() { return delegate.version(); }
        @Override public Optional<Executor> executor() { return delegate.executor(); }
    }

    /** The answer as received, its body already read and handed to the caller's handler. */
    private record Replayed<T>(HttpResponse<byte[]> raw, T body) implements HttpResponse<T> {
        @Override public int statusCode() { return raw.statusCode(); }
        @Override public HttpRequest request() { return raw.request(); }
        @Override public Optional<HttpResponse<T>> previousResponse() { return Optional.empty(); }
        @Override public HttpHeaders headers() { return raw.headers(); }
        @Override public Optional<SSLSession> sslSession() { return raw.sslSession(); }
        @Override public URI uri() { return raw.uri(); }
        @Override public HttpClient.Version version() { return raw.version(); }
    }
}
