package dev.backplane.plugin.api.testkit;

import dev.backplane.plugin.api.ConnectorContext;
import java.net.http.HttpClient;
import java.security.NoSuchAlgorithmException;
import java.text.MessageFormat;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import javax.net.SocketFactory;
import javax.net.ssl.SSLContext;

/**
 * A {@link ConnectorContext} for connector tests that records everything the connector logs. A test that needs
 * another timeout passes it; one that needs another clock or socket factory overrides that method and keeps the rest.
 */
public class RecordingContext implements ConnectorContext {

    private final List<String> logLines = new CopyOnWriteArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final java.util.Map<String, java.util.Map<String, String>> staged = new java.util.concurrent.ConcurrentHashMap<>();
    private final Duration timeout;

    public RecordingContext() {
        this(Duration.ofSeconds(30));
    }

    /** A context whose calls may take {@code timeout}. */
    public RecordingContext(Duration timeout) {
        this.timeout = timeout;
    }

    public List<String> logLines() {
        return logLines;
    }

    /** What the connector staged through {@link #stageSecret}, by the reference it was answered. */
    public java.util.Map<String, java.util.Map<String, String>> staged() {
        return staged;
    }

    /** Keeps the fields in memory under a fresh {@code tenants/test/issued/<uuid>} reference. */
    @Override
    public String stageSecret(String purpose, java.util.Map<String, String> fields) {
        String ref = "tenants/test/issued/" + java.util.UUID.randomUUID();
        staged.put(ref, java.util.Map.copyOf(fields));
        return ref;
    }

    @Override
    public HttpClient httpClient() {
        return http;
    }

    @Override
    public SSLContext sslContext() {
        try {
            return SSLContext.getDefault();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Client keys as given; trusts {@code credentialCas} when there are any, else the JDK's roots. */
    @Override
    public SSLContext sslContext(javax.net.ssl.KeyManager[] clientKeys,
                                 java.util.List<java.security.cert.X509Certificate> credentialCas) {
        try {
            javax.net.ssl.TrustManager[] trust = null;
            if (!credentialCas.isEmpty()) {
                java.security.KeyStore ks = java.security.KeyStore.getInstance(java.security.KeyStore.getDefaultType());
                ks.load(null, null);
                for (int i = 0; i < credentialCas.size(); i++) {
                    ks.setCertificateEntry("ca-" + i, credentialCas.get(i));
                }
                javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance(
                        javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(ks);
                trust = tmf.getTrustManagers();
            }
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(clientKeys, trust, null);
            return ctx;
        } catch (java.security.GeneralSecurityException | java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public SocketFactory socketFactory() {
        return SocketFactory.getDefault();
    }

    @Override
    public Clock clock() {
        return Clock.systemUTC();
    }

    @Override
    public boolean cancelled() {
        return false;
    }

    @Override
    public Duration timeout() {
        return timeout;
    }

    @Override
    public System.Logger logger() {
        return new System.Logger() {
            @Override
            public String getName() {
                return "connector-under-test";
            }

            @Override
            public boolean isLoggable(Level level) {
                return true;
            }

            @Override
            public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
                logLines.add(level + " " + msg + (thrown == null ? "" : " " + thrown));
            }

            @Override
            public void log(Level level, ResourceBundle bundle, String format, Object... params) {
                logLines.add(level + " " + (params == null || params.length == 0 ? format
                        : MessageFormat.format(format, params)));
            }

            @Override
            public void log(Level level, Supplier<String> msgSupplier) {
                logLines.add(level + " " + msgSupplier.get());
            }
        };
    }
}
