package dev.backplane.kernel.egress;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * TLS toward one target, from its fields: {@code verify_tls} (false trusts anything — the operator's
 * explicit choice), {@code tls_ca_pin} (trust only that PEM bundle) and {@code tls_server_name} (the
 * name the certificate must carry and the SNI sent, when it differs from the host — for example an
 * IP host whose certificate names a DNS name). Name checking is done here, against that name.
 */
public final class TargetTls {

    /** What the target's fields ask of a server certificate; every TLS context toward the target trusts by it. */
    private record Trust(boolean verifyTls, Optional<String> caPin, String expected, X509TrustManager roots) {

        /** Without a pin, {@code credentialCas} (when given) replace the JDK's roots; verify_tls false checks nothing. */
        TrustManager[] managers(List<X509Certificate> credentialCas) throws GeneralSecurityException {
            X509TrustManager chain = null;
            if (verifyTls) {
                chain = caPin.isEmpty() && !credentialCas.isEmpty() ? anchors(credentialCas)
                        : caPin.isEmpty() ? roots : chainTrust(caPin);
            }
            return new TrustManager[] {new NameCheckingTrustManager(chain, expected)};
        }
    }

    private final SSLContext context;
    private final SSLParameters parameters;
    private final Trust trust;

    private TargetTls(SSLContext context, SSLParameters parameters, Trust trust) {
        this.context = context;
        this.parameters = parameters;
        this.trust = trust;
    }

    public static TargetTls of(String host, boolean verifyTls, Optional<String> caPin, Optional<String> serverName) {
        try {
            return of(host, verifyTls, caPin, serverName, trusting(null));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot build the TLS context: " + e.getMessage(), e);
        }
    }

    /**
     * As above; without a pin, a server's chain is checked against {@code roots}: the kernel's outbound trust (the
     * JDK's roots and the private CA bundle of {@code tls.ca-bundle}, when one is set).
     */
    public static TargetTls of(String host, boolean verifyTls, Optional<String> caPin, Optional<String> serverName,
                               X509TrustManager roots) {
        Trust trust = new Trust(verifyTls, caPin, serverName.orElse(host), roots);
        try {
            SSLContext ctx = context(null, trust.managers(List.of()));
            SSLParameters params = ctx.getDefaultSSLParameters();
            if (serverName.isPresent() && !isIpLiteral(serverName.get())) {
                params.setServerNames(List.of(new SNIHostName(serverName.get())));
            }
            return new TargetTls(ctx, params, trust);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot build the TLS context: " + e.getMessage(), e);
        }
    }

    /**
     * This target's TLS presenting client keys; without a pin, {@code credentialCas} (when given)
     * replace the JDK's roots as the trust anchors. A pin wins; verify_tls false checks nothing.
     */
    public SSLContext withClientKeys(KeyManager[] clientKeys, List<X509Certificate> credentialCas) {
        try {
            return context(clientKeys, trust.managers(credentialCas));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot build the TLS context: " + e.getMessage(), e);
        }
    }

    private static SSLContext context(KeyManager[] keys, TrustManager[] trust) throws GeneralSecurityException {
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(keys, trust, new SecureRandom());
        return ctx;
    }

    public SSLContext context() {
        return context;
    }

    public SSLParameters parameters() {
        return parameters;
    }

    private static X509TrustManager anchors(List<X509Certificate> cas) throws GeneralSecurityException {
        KeyStore ks = emptyKeyStore();
        for (int i = 0; i < cas.size(); i++) {
            ks.setCertificateEntry("credential-ca-" + i, cas.get(i));
        }
        return trusting(ks);
    }

    private static X509TrustManager chainTrust(Optional<String> pem) throws GeneralSecurityException {
        if (pem.isEmpty()) {
            return trusting(null);
        }
        KeyStore ks = emptyKeyStore();
        Collection<? extends java.security.cert.Certificate> certs = CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(pem.get().getBytes(StandardCharsets.US_ASCII)));
        int i = 0;
        for (var c : certs) {
            ks.setCertificateEntry("pin-" + i++, c);
        }
        return trusting(ks);
    }

    private static KeyStore emptyKeyStore() throws GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
        try {
            ks.load(null, null);
        } catch (java.io.IOException e) {
            throw new GeneralSecurityException(e);
        }
        return ks;
    }

    /** The X.509 trust manager of the anchors in {@code ks} (null: the JDK's roots). */
    public static X509TrustManager trusting(KeyStore ks) throws GeneralSecurityException {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        for (TrustManager tm : tmf.getTrustManagers()) {
            if (tm instanceof X509TrustManager x) {
                return x;
            }
        }
        throw new GeneralSecurityException("no X509 trust manager");
    }

    static boolean isIpLiteral(String s) {
        return s.contains(":") || s.matches("\\d+\\.\\d+\\.\\d+\\.\\d+");
    }
}
