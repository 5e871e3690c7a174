package dev.backplane.kernel.egress;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * The HTTP egress of plugins. The JDK {@link java.net.http.HttpClient} accepts no socket factory, so
 * the client lent to plugins sends everything through this small proxy on loopback: {@code CONNECT}
 * tunnels (https) and absolute-form requests (plain http). The proxy dials through the
 * {@link GuardedSocketFactory}, so the address actually connected to is checked against the SSRF
 * guard at every connect — a DNS answer that changed since registration cannot reach a forbidden
 * address. TLS stays end to end between the plugin and the target. A request to an IP literal the guard
 * admits goes straight to the target ({@link #selector()}): there is no name to resolve again.
 */
public final class EgressProxy implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(EgressProxy.class.getName());
    private static final int MAX_HEAD = 64 * 1024;
    private static final int BUFFER = 16 * 1024;
    /** How long a kept-alive plain-http client connection may sit idle between requests. */
    private static final int IDLE_MILLIS = 120_000;
    private static final byte[] CRLF = {'\r', '\n'};

    private final ServerSocket server;
    private final GuardedSocketFactory sockets;

    public EgressProxy(GuardedSocketFactory sockets) throws IOException {
        this.sockets = sockets;
        this.server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("egress-proxy").start(this::acceptLoop);
    }

    /**
     * The route of each request a lent client sends: straight to the target when its URI names an IP
     * literal the SSRF guard admits (no name is resolved, so the checked address is the dialled one and the
     * proxy would only add a loopback hop each way); through this proxy otherwise — a host name, whose
     * answer may change between a check and the client's own lookup, or a literal the guard refuses (the
     * proxy answers that refusal, 403 with {@code X-Svc-Egress: refused}).
     */
    public ProxySelector selector() {
        List<Proxy> viaProxy = List.of(new Proxy(Proxy.Type.HTTP,
                new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort())));
        List<Proxy> direct = List.of(Proxy.NO_PROXY);
        return new ProxySelector() {
            @Override
            public List<Proxy> select(URI uri) {
                return sockets.admitsLiteral(uri.getHost()) ? direct : viaProxy;
            }

            @Override
            public void connectFailed(URI uri, java.net.SocketAddress address, IOException e) {
                // a failed connect is the client's error to report; there is no other route to try
            }
        };
    }

    public int port() {
        return server.getLocalPort();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Thread.ofVirtual().name("egress-conn").start(() -> serve(client));
            } catch (IOException e) {
                if (!server.isClosed()) {
                    LOG.log(Level.WARNING, "egress proxy accept failed: " + e.getMessage());
                }
            }
        }
    }

    private void serve(Socket client) {
        try (client) {
            client.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(client.getInputStream(), BUFFER);
            OutputStream out = new BufferedOutputStream(client.getOutputStream(), BUFFER);
            client.setSoTimeout(IDLE_MILLIS);
            String head = readHead(in);
            if (head == null) {
                return;
            }
            String[] requestLine = head.substring(0, head.indexOf("\r\n")).split(" ");
            if (requestLine.length == 3 && requestLine[0].equalsIgnoreCase("CONNECT")) {
                client.setSoTimeout(0); // a tunnel lives as long as the client keeps its pooled connection
                tunnel(requestLine[1], in, client.getOutputStream()); // unbuffered: TLS records pass at once
            } else {
                new PlainHttp(client, in, out).serve(head);
            }
        } catch (IOException e) {
            // the client or the target went away; nothing to report
        }
    }

    private void tunnel(String authority, InputStream in, OutputStream out) throws IOException {
        int colon = authority.lastIndexOf(':');
        if (colon < 0) {
            answer(out, 400, "Bad Request", "CONNECT needs host:port");
            return;
        }
        String host = unbracket(authority.substring(0, colon));
        int port;
        try {
            port = Integer.parseInt(authority.substring(colon + 1));
        } catch (NumberFormatException e) {
            answer(out, 400, "Bad Request", "CONNECT needs host:port");
            return;
        }
        Socket target = dial(host, port, out);
        if (target == null) {
            return;
        }
        try (target) {
            target.setTcpNoDelay(true);
            out.write("HTTP/1.1 200 Connection Established\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Thread up = upload(in, target);
            try {
                target.getInputStream().transferTo(out);
                out.flush();
            } finally {
                up.interrupt();
            }
        }
    }

    /**
     * Plain-http forwarding with keep-alive on both sides: each request's body and each response's body
     * is framed (Content-Length, chunked, or to end of stream), so one client connection carries many
     * requests and the connection to the target is reused while the client keeps asking the same
     * host and port. A request for another host closes the old target connection and dials anew —
     * through the guard, as every dial.
     */
    private final class PlainHttp {
        private final Socket client;
        private final InputStream in;
        private final OutputStream out;
        private String upstreamAuthority;
        private Socket upstream;
        private InputStream upIn;
        private OutputStream upOut;

        PlainHttp(Socket client, InputStream in, OutputStream out) {
            this.client = client;
            this.in = in;
            this.out = out;
        }

        void serve(String firstHead) throws IOException {
            try {
                String head = firstHead;
                while (head != null && exchange(head)) {
                    client.setSoTimeout(IDLE_MILLIS);
                    head = readHead(in);
                }
            } finally {
                closeUpstream();
            }
        }

        /** One request and its response; false when the client connection must close afterwards. */
        private boolean exchange(String head) throws IOException {
            client.setSoTimeout(0);
            List<String> lines = List.of(head.split("\r\n"));
            String[] requestLine = lines.getFirst().split(" ");
            if (requestLine.length != 3 || requestLine[0].equalsIgnoreCase("CONNECT")) {
                answer(out, 400, "Bad Request", "malformed request line");
                return false;
            }
            URI uri;
            try {
                uri = URI.create(requestLine[1]);
            } catch (IllegalArgumentException e) {
                answer(out, 400, "Bad Request", "malformed request target");
                return false;
            }
            if (uri.getHost() == null || !"http".equalsIgnoreCase(uri.getScheme())) {
                answer(out, 400, "Bad Request", "only absolute http:// requests and CONNECT are proxied");
                return false;
            }
            Headers request = Headers.of(lines);
            int port = uri.getPort() > 0 ? uri.getPort() : 80;
            String host = unbracket(uri.getHost());
            if (!(host + ":" + port).equals(upstreamAuthority)) {
                closeUpstream();
                Socket target = dial(host, port, out);
                if (target == null) {
                    return false;
                }
                target.setTcpNoDelay(true);
                upstream = target;
                upstreamAuthority = host + ":" + port;
                upIn = new BufferedInputStream(target.getInputStream(), BUFFER);
                upOut = new BufferedOutputStream(target.getOutputStream(), BUFFER);
            }
            boolean clientCloses = request.has("connection", "close") || requestLine[2].equalsIgnoreCase("HTTP/1.0");
            StringBuilder forwarded = new StringBuilder();
            String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            forwarded.append(requestLine[0]).append(' ').append(path)
                    .append(uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()).append(" HTTP/1.1\r\n");
            request.appendHopByHopFree(forwarded, "proxy-", "expect:");
            if (clientCloses) {
                forwarded.append("Connection: close\r\n");
            }
            forwarded.append("\r\n");
            if (request.has("expect", "100-continue")) {
                out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
            upOut.write(forwarded.toString().getBytes(StandardCharsets.ISO_8859_1));
            copyBody(request, false, in, upOut);
            upOut.flush();
            return relayResponse(requestLine[0], clientCloses);
        }

        private boolean relayResponse(String method, boolean clientCloses) throws IOException {
            String head = readHead(upIn);
            while (head != null && isInterim(head)) {
                out.write(head.getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                head = readHead(upIn);
            }
            if (head == null) {
                closeUpstream();
                answer(out, 502, "Bad Gateway", "the target closed the connection without a response");
                return false;
            }
            List<String> lines = List.of(head.split("\r\n"));
            String[] statusLine = lines.getFirst().split(" ", 3);
            int status = statusLine.length > 1 ? parseStatus(statusLine[1]) : -1;
            if (status < 0) {
                closeUpstream();
                answer(out, 502, "Bad Gateway", "the target answered with a malformed status line");
                return false;
            }
            Headers response = Headers.of(lines);
            boolean noBody = method.equalsIgnoreCase("HEAD") || status == 204 || status == 304;
            boolean toEnd = !noBody && !response.has("transfer-encoding", "chunked") && response.contentLength() < 0;
            boolean upstreamCloses = toEnd || response.has("connection", "close")
                    || statusLine[0].equalsIgnoreCase("HTTP/1.0");
            boolean closeClient = clientCloses || toEnd;
            StringBuilder relayed = new StringBuilder(lines.getFirst()).append("\r\n");
            response.appendHopByHopFree(relayed, "proxy-connection:");
            if (closeClient) {
                relayed.append("Connection: close\r\n");
            }
            relayed.append("\r\n");
            out.write(relayed.toString().getBytes(StandardCharsets.ISO_8859_1));
            if (toEnd) {
                copyFlushing(upIn, out);
            } else if (!noBody) {
                copyBody(response, true, upIn, out);
            }
            out.flush();
            if (upstreamCloses) {
                closeUpstream();
            }
            return !closeClient;
        }

        private void closeUpstream() {
            if (upstream != null) {
                try {
                    upstream.close();
                } catch (IOException ignored) {
                    // already gone
                }
            }
            upstream = null;
            upstreamAuthority = null;
        }
    }

    /** The header lines of one message (after its start line). */
    private record Headers(List<String> lines) {

        static Headers of(List<String> headLines) {
            return new Headers(headLines.subList(1, headLines.size()));
        }

        boolean has(String name, String token) {
            for (String line : lines) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                    for (String v : line.substring(colon + 1).split(",")) {
                        if (v.trim().equalsIgnoreCase(token)) {
                            return true;
                        }
                    }
                }
            }
            return false;
        }

        /** The Content-Length, or -1 when absent; a malformed one is an error. */
        long contentLength() throws IOException {
            for (String line : lines) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("content-length")) {
                    try {
                        long n = Long.parseLong(line.substring(colon + 1).trim());
                        if (n < 0) {
                            throw new IOException("negative Content-Length");
                        }
                        return n;
                    } catch (NumberFormatException e) {
                        throw new IOException("malformed Content-Length");
                    }
                }
            }
            return -1;
        }

        /** Appends every line except hop-by-hop ones (Connection, Keep-Alive) and those with the given prefixes. */
        void appendHopByHopFree(StringBuilder to, String... dropPrefixes) {
            for (String line : lines) {
                String lower = line.toLowerCase(Locale.ROOT);
                boolean drop = line.isEmpty() || lower.startsWith("connection:") || lower.startsWith("keep-alive:");
                for (String prefix : dropPrefixes) {
                    drop |= lower.startsWith(prefix);
                }
                if (!drop) {
                    to.append(line).append("\r\n");
                }
            }
        }
    }

    /** Copies a message body as framed by its headers; a request without framing has no body. */
    private static void copyBody(Headers headers, boolean isResponse, InputStream from, OutputStream to)
            throws IOException {
        if (headers.has("transfer-encoding", "chunked")) {
            copyChunked(from, to);
            return;
        }
        long length = headers.contentLength();
        if (length > 0) {
            if (!copyExactly(from, to, length)) {
                throw new IOException((isResponse ? "response" : "request") + " body ended early");
            }
        }
    }

    private static void copyChunked(InputStream from, OutputStream to) throws IOException {
        while (true) {
            String sizeLine = readLine(from);
            to.write((sizeLine + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            int semicolon = sizeLine.indexOf(';');
            long size;
            try {
                size = Long.parseLong((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
            } catch (NumberFormatException e) {
                throw new IOException("malformed chunk size");
            }
            if (size == 0) {
                String trailer;
                do {
                    trailer = readLine(from);
                    to.write((trailer + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                } while (!trailer.isEmpty());
                return;
            }
            if (!copyExactly(from, to, size)) {
                throw new IOException("chunk ended early");
            }
            String end = readLine(from);
            if (!end.isEmpty()) {
                throw new IOException("malformed chunk end");
            }
            to.write(CRLF);
            to.flush(); // a streamed response (logs, watches) reaches the client chunk by chunk
        }
    }

    /** Copies to the end of the stream, flushing each read so a streamed body is not held back. */
    private static void copyFlushing(InputStream from, OutputStream to) throws IOException {
        byte[] buf = new byte[BUFFER];
        for (int n; (n = from.read(buf)) >= 0; ) {
            to.write(buf, 0, n);
            to.flush();
        }
    }

    private static boolean isInterim(String head) {
        String[] statusLine = head.substring(0, head.indexOf("\r\n")).split(" ", 3);
        int status = statusLine.length > 1 ? parseStatus(statusLine[1]) : -1;
        return status >= 100 && status < 200 && status != 101;
    }

    private static int parseStatus(String code) {
        try {
            int status = Integer.parseInt(code);
            return status >= 100 && status <= 999 ? status : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Dials through the guard; answers the client itself when the guard or the network says no. */
    private Socket dial(String host, int port, OutputStream out) throws IOException {
        try {
            return sockets.createSocket(host, port);
        } catch (GuardedSocketFactory.SsrfRefusedException e) {
            answer(out, 403, "Forbidden", "refused by the backplane's SSRF guard: " + e.getMessage());
        } catch (IOException e) {
            answer(out, 502, "Bad Gateway", "cannot connect to " + host + ":" + port + ": " + e.getMessage());
        }
        return null;
    }

    /** Copies what the client sends to the target on its own thread, half-closing the target at the end. */
    private static Thread upload(InputStream clientIn, Socket target) {
        return Thread.ofVirtual().start(() -> {
            try {
                clientIn.transferTo(target.getOutputStream());
                target.shutdownOutput();
            } catch (IOException ignored) {
                // closed
            }
        });
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream(512);
        int state = 0;
        while (buf.size() < MAX_HEAD) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            buf.write(b);
            state = switch (state) {
                case 0, 2 -> b == '\r' ? state + 1 : 0;
                case 1 -> b == '\n' ? 2 : 0;
                case 3 -> b == '\n' ? 4 : 0;
                default -> 0;
            };
            if (state == 4) {
                return buf.toString(StandardCharsets.ISO_8859_1);
            }
        }
        throw new IOException("message head over " + MAX_HEAD + " bytes");
    }

    /** One CRLF-terminated line without its CRLF (chunk sizes, trailers). */
    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int previous = -1;
        while (line.length() < MAX_HEAD) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("stream ended inside a chunked body");
            }
            if (previous == '\r' && b == '\n') {
                line.setLength(line.length() - 1);
                return line.toString();
            }
            line.append((char) b);
            previous = b;
        }
        throw new IOException("chunk line over " + MAX_HEAD + " bytes");
    }

    /** Copies exactly {@code length} bytes; false when the stream ends first. */
    private static boolean copyExactly(InputStream from, OutputStream to, long length) throws IOException {
        byte[] buf = new byte[(int) Math.min(BUFFER, Math.max(1, length))];
        long left = length;
        while (left > 0) {
            int n = from.read(buf, 0, (int) Math.min(buf.length, left));
            if (n < 0) {
                return false;
            }
            to.write(buf, 0, n);
            left -= n;
        }
        return true;
    }

    private static void answer(OutputStream out, int status, String reason, String message) throws IOException {
        byte[] body = message.getBytes(StandardCharsets.UTF_8);
        out.write(("HTTP/1.1 " + status + " " + reason + "\r\nContent-Type: text/plain; charset=utf-8\r\n"
                + "X-Svc-Egress: " + (status == 403 ? "refused" : "failed") + "\r\nContent-Length: " + body.length
                + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
    }

    private static String unbracket(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
