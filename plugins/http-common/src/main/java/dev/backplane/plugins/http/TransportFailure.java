package dev.backplane.plugins.http;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.TargetSpec;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLException;

/**
 * An HTTP exchange with a vendor that failed below HTTP (TLS, a timeout, no route, a reset) as the SPEC's
 * error code: {@code connector_tls_verify_failed}, {@code connector_timeout}, {@code connector_unreachable},
 * else {@code connector_error}. The exception's own words pass through the plugin's scrubber first, since
 * they may quote what the call sent.
 */
public final class TransportFailure {

    private TransportFailure() {
    }

    /**
     * The error for {@code e}, raised while {@code request} (e.g. {@code GET /v1/sys/health}) waited on
     * {@code target} for at most {@code timeout}.
     */
    public static ConnectorException of(IOException e, TargetSpec target, String request, Duration timeout,
                                        UnaryOperator<String> scrub) {
        String where = where(target);
        Throwable tls = cause(e, SSLException.class);
        if (tls == null) {
            tls = cause(e, CertificateException.class);
        }
        if (tls != null) {
            return new ConnectorException(ErrorCode.CONNECTOR_TLS_VERIFY_FAILED, "TLS with " + where
                    + " failed (check the target's verify_tls, tls_ca_pin, tls_server_name)",
                    Map.of("exception_message", scrub.apply(String.valueOf(tls.getMessage()))), null);
        }
        if (cause(e, HttpTimeoutException.class) != null) {
            return new ConnectorException(ErrorCode.CONNECTOR_TIMEOUT, where + " did not answer " + request
                    + " within " + timeout.toMillis() + " ms");
        }
        String what = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + scrub.apply(e.getMessage()));
        if (cause(e, ConnectException.class) != null || cause(e, UnknownHostException.class) != null
                || cause(e, NoRouteToHostException.class) != null || cause(e, UnresolvedAddressException.class) != null) {
            return new ConnectorException(ErrorCode.CONNECTOR_UNREACHABLE, "cannot reach " + where + ": " + what);
        }
        return new ConnectorException(ErrorCode.CONNECTOR_ERROR, "the exchange with " + where + " failed: " + what);
    }

    /** {@code host:port} of a target, as error messages name it. */
    public static String where(TargetSpec target) {
        return target.host() + ":" + target.port();
    }

    private static Throwable cause(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return c;
            }
        }
        return null;
    }
}
