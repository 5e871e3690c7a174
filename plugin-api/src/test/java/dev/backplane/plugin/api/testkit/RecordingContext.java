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

/** A {@link ConnectorContext} for connector tests that records everything the connector logs. */
public final class RecordingContext implements ConnectorContext {

    private final List<String> logLines = new CopyOnWriteArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public List<String> logLines() {
        return logLines;
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
        return Duration.ofSeconds(30);
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
