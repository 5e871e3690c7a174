package dev.backplane.kernel.app;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * What the kernel's own outbound TLS clients trust — the identity provider (discovery, JWKS), Vault, Google Secret
 * Manager, and targets without a {@code tls_ca_pin}: the JDK's default roots, plus the private CA bundle of
 * {@code tls.ca-bundle} when one is set (a cluster's internal CA, say). Built once at start; a bundle file that is
 * missing or holds no certificate stops the start with a message naming the file.
 */
public final class OutboundTrust {

    private final X509TrustManager trustManager;
    private final SSLContext context;
    private final Optional<Path> bundle;
    private final int bundleCertificates;

    private OutboundTrust(X509TrustManager trustManager, Optional<Path> bundle, int bundleCertificates) {
        this.trustManager = trustManager;
        this.bundle = bundle;
        this.bundleCertificates = bundleCertificates;
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, new TrustManager[] {trustManager}, new SecureRandom());
            this.context = ctx;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot build the TLS context: " + e.getMessage(), e);
        }
    }

    /** The JDK's default roots only (no bundle configured). */
    public static OutboundTrust jdkDefault() {
        try {
            return new OutboundTrust(trusting(null), Optional.empty(), 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot load the JDK's trust store: " + e.getMessage(), e);
        }
    }

    /**
     * The JDK's default roots plus every certificate of the PEM {@code bundle}.
     *
     * @throws IllegalArgumentException naming the file when it cannot be read or holds no certificate
     */
    public static OutboundTrust withBundle(Path bundle) {
        List<X509Certificate> extra = read(bundle);
        try {
            KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
            ks.load(null, null);
            int i = 0;
            for (X509Certificate root : trusting(null).getAcceptedIssuers()) {
                ks.setCertificateEntry("jdk-" + i++, root);
            }
            i = 0;
            for (X509Certificate c : extra) {
                ks.setCertificateEntry("bundle-" + i++, c);
            }
            return new OutboundTrust(trusting(ks), Optional.of(bundle), extra.size());
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build the trust store with " + bundle + ": " + e.getMessage(), e);
        }
    }

    /** {@link #jdkDefault()} when {@code bundle} is empty, else {@link #withBundle}. */
    public static OutboundTrust of(Optional<Path> bundle) {
        return bundle.map(OutboundTrust::withBundle).orElseGet(OutboundTrust::jdkDefault);
    }

    private static List<X509Certificate> read(Path bundle) {
        Collection<? extends Certificate> certs;
        try (InputStream in = Files.newInputStream(bundle)) {
            certs = CertificateFactory.getInstance("X.509").generateCertificates(in);
        } catch (IOException e) {
            throw new IllegalArgumentException("tls.ca-bundle: cannot read " + bundle + " ("
                    + e.getClass().getSimpleName() + ")");
        } catch (CertificateException e) {
            throw new IllegalArgumentException("tls.ca-bundle: " + bundle + " is not a PEM bundle of certificates ("
                    + e.getMessage() + ")");
        }
        List<X509Certificate> out = new ArrayList<>();
        for (Certificate c : certs) {
            if (c instanceof X509Certificate x) {
                out.add(x);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("tls.ca-bundle: " + bundle + " holds no certificate (expected PEM "
                    + "blocks -----BEGIN CERTIFICATE-----)");
        }
        return out;
    }

    /** The X.509 trust manager of the anchors in {@code ks} (null: the JDK's default roots). */
    private static X509TrustManager trusting(KeyStore ks) throws GeneralSecurityException {
        return dev.backplane.kernel.egress.TargetTls.trusting(ks);
    }

    /** Checks a server's chain against the JDK's roots and the bundle (host names are the caller's to check). */
    public X509TrustManager trustManager() {
        return trustManager;
    }

    /** A TLS context trusting the JDK's roots and the bundle, with the JDK's host-name check. */
    public SSLContext sslContext() {
        return context;
    }

    @Override
    public String toString() {
        return bundle.map(b -> "JDK roots + " + bundleCertificates + " certificate(s) of " + b).orElse("JDK roots");
    }
}
