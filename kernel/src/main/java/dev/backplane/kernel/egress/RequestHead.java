package dev.backplane.kernel.egress;

import java.net.URI;
import java.util.List;
import java.util.Optional;

/**
 * What the egress proxy makes of one request head a client sent: the authority of a {@code CONNECT}, an
 * absolute-form plain-http request it forwards, or a malformed one it answers with 400 itself. Parsing
 * touches no socket, so every refusal here is decided before anything is dialled.
 */
sealed interface RequestHead permits RequestHead.Plain, RequestHead.Malformed {

    /** The {@code host:port} a first head asks to tunnel to, when its request line is {@code CONNECT x HTTP/...}. */
    static Optional<String> connectAuthority(String head) {
        String[] requestLine = head.substring(0, head.indexOf("\r\n")).split(" ");
        return requestLine.length == 3 && requestLine[0].equalsIgnoreCase("CONNECT")
                ? Optional.of(requestLine[1]) : Optional.empty();
    }

    /** A plain-http request head: absolute {@code http://} form only; a {@code CONNECT} here is malformed. */
    static RequestHead parse(String head) {
        List<String> lines = List.of(head.split("\r\n"));
        if (lines.isEmpty()) {
            return new Malformed("malformed request line"); // a head of blank lines only
        }
        String[] requestLine = lines.getFirst().split(" ");
        if (requestLine.length != 3 || requestLine[0].equalsIgnoreCase("CONNECT")) {
            return new Malformed("malformed request line");
        }
        URI uri;
        try {
            uri = URI.create(requestLine[1]);
        } catch (IllegalArgumentException e) {
            return new Malformed("malformed request target");
        }
        if (uri.getHost() == null || !"http".equalsIgnoreCase(uri.getScheme())) {
            return new Malformed("only absolute http:// requests and CONNECT are proxied");
        }
        return new Plain(requestLine[0], uri, requestLine[2], Headers.of(lines));
    }

    /** A request the proxy forwards to {@link #target()}. */
    record Plain(String method, URI uri, String version, Headers headers) implements RequestHead {

        Authority target() {
            return Authority.ofUri(uri);
        }

        /** Whether the client closes its connection after this exchange. */
        boolean clientCloses() {
            return headers.has("connection", "close") || version.equalsIgnoreCase("HTTP/1.0");
        }

        boolean expectsContinue() {
            return headers.has("expect", "100-continue");
        }

        /**
         * The head sent to the target: origin-form request line, HTTP/1.1, without hop-by-hop, Proxy-* and
         * Expect headers (the proxy answers 100 Continue itself).
         */
        String forwardedHead() {
            StringBuilder forwarded = new StringBuilder();
            String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            forwarded.append(method).append(' ').append(path)
                    .append(uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()).append(" HTTP/1.1\r\n");
            headers.appendHopByHopFree(forwarded, "proxy-", "expect:");
            if (clientCloses()) {
                forwarded.append("Connection: close\r\n");
            }
            return forwarded.append("\r\n").toString();
        }
    }

    /** A head the proxy refuses with 400 and {@code message}. */
    record Malformed(String message) implements RequestHead {

        ProxyAnswer answer() {
            return ProxyAnswer.badRequest(message);
        }
    }
}
