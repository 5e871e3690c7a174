package dev.backplane.kernel.identity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLContext;

/**
 * The issuer's signing keys. The JWKS URL is configured or found lazily in the issuer's discovery
 * document (the identity provider may start after the kernel). Keys are cached; a token whose
 * {@code kid} is not in the cache triggers one rate-limited refetch, so key rotation works.
 */
public final class JwksKeys implements JWKSource<SecurityContext> {

    static final String FAILURES = "svc.identity.key.fetch.failures";
    private static final ObjectMapper JSON = new ObjectMapper();
    private final String issuer;
    private final Optional<String> configuredUrl;
    private final Duration cacheTtl;
    private final SSLContext sslContext;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile JWKSource<SecurityContext> delegate;
    private volatile Counter discoveryFailures = Counter.builder(FAILURES).register(new SimpleMeterRegistry());
    private volatile Counter jwksFailures = discoveryFailures;

    public JwksKeys(String issuer, Optional<String> configuredUrl, Duration cacheTtl) {
        this(issuer, configuredUrl, cacheTtl, defaultContext());
    }

    /**
     * As above, checking an https identity provider's certificate (discovery and JWKS fetches) against
     * {@code sslContext}: the JDK's roots and any private CA the kernel is configured with.
     */
    public JwksKeys(String issuer, Optional<String> configuredUrl, Duration cacheTtl, SSLContext sslContext) {
        this.issuer = issuer;
        this.configuredUrl = configuredUrl;
        this.cacheTtl = cacheTtl;
        this.sslContext = sslContext;
    }

    private static SSLContext defaultContext() {
        try {
            return SSLContext.getDefault();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Counts failed fetches into {@code registry} as {@value #FAILURES}, tagged {@code what=discovery} (the issuer's
     * discovery document) or {@code what=jwks} (the key set): unreachable, a certificate not trusted, a timeout, a
     * status other than 200. A fetch refused by the refetch rate limit is not a failure.
     */
    public void meterInto(MeterRegistry registry) {
        discoveryFailures = Counter.builder(FAILURES).tag("what", "discovery")
                .description("failed fetches of the identity provider's discovery document or signing keys")
                .register(registry);
        jwksFailures = Counter.builder(FAILURES).tag("what", "jwks")
                .description("failed fetches of the identity provider's discovery document or signing keys")
                .register(registry);
    }

    @Override
    public List<JWK> get(JWKSelector selector, SecurityContext context) throws KeySourceException {
        JWKSource<SecurityContext> source = source();
        try {
            return source.get(selector, context);
        } catch (RateLimitReachedException e) {
            throw e;
        } catch (KeySourceException e) {
            jwksFailures.increment();
            throw e;
        }
    }

    private JWKSource<SecurityContext> source() throws KeySourceException {
        JWKSource<SecurityContext> d = delegate;
        if (d != null) {
            return d;
        }
        lock.lock();
        try {
            if (delegate == null) {
                URL url = URI.create(configuredUrl.orElseGet(this::discoverCounted)).toURL();
                delegate = JWKSourceBuilder.<SecurityContext>create(url, new DefaultResourceRetriever(
                                JWKSourceBuilder.DEFAULT_HTTP_CONNECT_TIMEOUT, JWKSourceBuilder.DEFAULT_HTTP_READ_TIMEOUT,
                                JWKSourceBuilder.DEFAULT_HTTP_SIZE_LIMIT, true, sslContext.getSocketFactory()))
                        .cache(cacheTtl.toMillis(), 15_000)
                        .rateLimited(10_000)
                        .refreshAheadCache(false)
                        .retrying(true)
                        .build();
            }
            return delegate;
        } catch (IOException | RuntimeException e) {
            throw new KeySourceException("cannot reach the identity provider's keys: " + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    private String discoverCounted() {
        try {
            return discover();
        } catch (RuntimeException e) {
            discoveryFailures.increment();
            throw e;
        }
    }

    private String discover() {
        String discovery = issuer.replaceAll("/+$", "") + "/.well-known/openid-configuration";
        try (HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .sslContext(sslContext).build()) {
            HttpResponse<byte[]> res = http.send(HttpRequest.newBuilder(URI.create(discovery))
                    .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            if (res.statusCode() != 200) {
                throw new IllegalStateException(discovery + " answered HTTP " + res.statusCode());
            }
            JsonNode doc = JSON.readTree(res.body());
            String jwks = doc.path("jwks_uri").asText("");
            if (jwks.isEmpty()) {
                throw new IllegalStateException(discovery + " has no jwks_uri");
            }
            return jwks;
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + discovery + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted reading " + discovery, e);
        }
    }
}
