package dev.backplane.plugin.api;

import java.net.http.HttpClient;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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

    /**
     * Stores a secret the operation obtained — such as the private key of a certificate it issued — in
     * the calling tenant's credential store and answers the reference, so the result can carry the
     * reference instead of the value. The kernel, never the plugin, chooses the reference: a fresh one
     * inside the calling tenant's scope (kv: {@code tenants/<tenant-id>/issued/<uuid>}), owned by that
     * tenant and usable wherever a secret_ref is (a target's secret_ref, for instance). The values are
     * written only there; the plugin must drop them from everything it returns or logs, and the kernel
     * scrubs them from the call's result, errors and log lines as well.
     *
     * @param purpose a short label of what is stored (letters, digits, '.', '_', '-'; at most 64), such
     *     as {@code pki.private_key}; recorded with the secret's field names, never with values
     * @param fields the secret's named fields (names 1-128 letters, digits, '_', '.', '-'; string values)
     * @return the secret_ref the fields were stored at
     * @throws UnsupportedOperationException when the kernel cannot stage secrets for this call (a kernel
     *     older than plugin-api 1.5, or a call with no calling tenant, such as a probe)
     * @throws ConnectorException when the store refuses or fails to write
     * @since 1.5
     */
    default String stageSecret(String purpose, Map<String, String> fields) {
        throw new UnsupportedOperationException("this kernel stages no secrets for plugins (plugin-api < 1.5)");
    }

    /**
     * Begins one child request of the composite operation this call runs: the kernel writes the child's
     * audit row — op id {@code childOpId}, its op_class from this connector's catalog, the call's
     * principal, target, session and work_ref, {@code parent_audit_id} the composite call's row, never
     * params or secrets — before this returns. Audit is fail-closed: when the row cannot be written this
     * throws and the plugin must not send the child request. Report the outcome on the step and close it.
     *
     * @param childOpId an operation of this connector's catalog (an unknown id is refused)
     * @throws ConnectorException {@code unknown_operation} for an op id the catalog lacks; {@code
     *     connector_error} when the audit row cannot be written
     * @throws UnsupportedOperationException when the kernel is older than plugin-api 1.6 or the call has no
     *     audit row to hang children on (a probe, a preview)
     * @since 1.6
     */
    default CompositeStep beginStep(String childOpId) {
        throw new UnsupportedOperationException("kernel lends no step audit (plugin-api < 1.6)");
    }
}
