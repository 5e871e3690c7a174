package dev.backplane.plugin.api;

import java.net.http.HttpClient;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import javax.net.SocketFactory;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * What the kernel lends a connector for one session. Connectors never read kernel configuration,
 * the database or other plugins; everything they may use comes through here.
 */
public interface ConnectorContext {

    /** An HTTP client whose TLS follows the target's verify_tls, tls_ca_pin and tls_server_name. */
    HttpClient httpClient();

    /** The TLS context built from the target's TLS fields, for clients that are not {@link HttpClient}. */
    SSLContext sslContext();

    /**
     * The SSL parameters that go with {@link #sslContext()} (server name indication when the target
     * sets tls_server_name). Clients that build their own TLS, such as a Kubernetes client, apply both.
     *
     * @since 1.1
     */
    default SSLParameters sslParameters() {
        return sslContext().getDefaultSSLParameters();
    }

    /**
     * A TLS context for the target that also presents client keys (mutual TLS, such as a kubeconfig's
     * client certificate) and, when the target verifies TLS without a pinned CA, trusts
     * {@code credentialCas} — the CA certificates the credential document itself names, such as a
     * kubeconfig's {@code certificate-authority-data} — instead of the JDK's default roots. The
     * target's verify_tls, tls_ca_pin and tls_server_name still decide: a pin always wins, and with
     * verify_tls false nothing is checked.
     *
     * @param clientKeys key managers presenting the client certificate (may be empty)
     * @param credentialCas CA certificates from the credential (may be empty)
     * @since 1.1
     */
    default SSLContext sslContext(KeyManager[] clientKeys, List<X509Certificate> credentialCas) {
        throw new UnsupportedOperationException("this kernel lends no client-keyed TLS contexts (plugin-api < 1.1)");
    }

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
