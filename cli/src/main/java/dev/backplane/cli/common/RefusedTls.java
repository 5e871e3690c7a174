package dev.backplane.cli.common;

import java.security.SecureRandom;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * A TLS context that refuses every use: the one the plain-http client is built with. That client is sent only
 * {@code http://} URLs and follows no redirect, so it never makes a TLS connection, and any call into its context
 * is a bug that says so instead of quietly setting up TLS.
 */
final class RefusedTls extends SSLContextSpi {

    private final Runnable onUse;

    private RefusedTls(Runnable onUse) {
        this.onUse = onUse;
    }

    /** A context whose every use runs {@code onUse} and then throws. */
    static SSLContext context(Runnable onUse) {
        return new SSLContext(new RefusedTls(onUse), null, "refused") {
        };
    }

    private IllegalStateException refused() {
        onUse.run();
        return new IllegalStateException("the plain-http client was asked for TLS");
    }

    @Override
    protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom random) {
        throw refused();
    }

    @Override
    protected SSLSocketFactory engineGetSocketFactory() {
        throw refused();
    }

    @Override
    protected SSLServerSocketFactory engineGetServerSocketFactory() {
        throw refused();
    }

    @Override
    protected SSLEngine engineCreateSSLEngine() {
        throw refused();
    }

    @Override
    protected SSLEngine engineCreateSSLEngine(String host, int port) {
        throw refused();
    }

    @Override
    protected SSLSessionContext engineGetServerSessionContext() {
        throw refused();
    }

    @Override
    protected SSLSessionContext engineGetClientSessionContext() {
        throw refused();
    }

    @Override
    protected SSLParameters engineGetDefaultSSLParameters() {
        throw refused();
    }

    @Override
    protected SSLParameters engineGetSupportedSSLParameters() {
        throw refused();
    }
}
