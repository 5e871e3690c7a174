package dev.backplane.kernel.egress;

import java.net.URI;
import java.util.Optional;

/**
 * The host and port one proxied request asks to reach: the authority of a {@code CONNECT} or the host of
 * an absolute http URI (port 80 when it names none). An IPv6 literal loses its brackets, as the guarded
 * dial expects.
 */
record Authority(String host, int port) {

    /**
     * The {@code host:port} of a {@code CONNECT}; empty when either part is missing or the port is not a number from
     * 1 to 65535 (the proxy answers 400 rather than failing the dial).
     */
    static Optional<Authority> ofConnect(String authority) {
        int colon = authority.lastIndexOf(':');
        if (colon < 1) {
            return Optional.empty();
        }
        String host = unbracket(authority.substring(0, colon));
        try {
            int port = Integer.parseInt(authority.substring(colon + 1));
            return port >= 1 && port <= 65535 && !host.isEmpty() ? Optional.of(new Authority(host, port))
                    : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The authority of an absolute http URI that has a host. */
    static Authority ofUri(URI uri) {
        return new Authority(unbracket(uri.getHost()), uri.getPort() > 0 ? uri.getPort() : 80);
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }

    private static String unbracket(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }
}
