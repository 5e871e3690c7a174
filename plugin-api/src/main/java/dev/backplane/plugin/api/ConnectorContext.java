package dev.backplane.plugin.api;

import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import javax.net.SocketFactory;
import javax.net.ssl.SSLContext;

/**
 * What the kernel lends a connector for one session. Connectors never read kernel configuration,
 * the database or other plugins; everything they may use comes through here.
 */
public interface ConnectorContext {

    /** An HTTP client whose TLS follows the target's verify_tls, tls_ca_pin and tls_server_name. */
    HttpClient httpClient();

    /** The TLS context built from the target's TLS fields, for clients that are not {@link HttpClient}. */
    SSLContext sslContext();

    /** Sockets that refuse destinations outside the deploy's SSRF allowlist at connect time. */
    SocketFactory socketFactory();

    /** The clock to use for timestamps. */
    Clock clock();

    /** A logger whose output is scrubbed of credential values. */
    System.Logger logger();

    /** True once the caller cancelled the call; long operations should check it and stop. */
    boolean cancelled();

    /** How long the whole call may take. */
    Duration timeout();
}
