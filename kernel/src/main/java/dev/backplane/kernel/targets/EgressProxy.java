package dev.backplane.kernel.targets;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The HTTP egress of plugins. The JDK {@link java.net.http.HttpClient} accepts no socket factory, so
 * the client lent to plugins sends everything through this small proxy on loopback: {@code CONNECT}
 * tunnels (https) and absolute-form requests (plain http). The proxy dials through the
 * {@link GuardedSocketFactory}, so the address actually connected to is checked against the SSRF
 * guard at every connect — a DNS answer that changed since registration cannot reach a forbidden
 * address. TLS stays end to end between the plugin and the target.
 */
public final class EgressProxy implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(EgressProxy.class.getName());
    private static final int MAX_HEAD = 64 * 1024;

    private final ServerSocket server;
    private final GuardedSocketFactory sockets;

    public EgressProxy(GuardedSocketFactory sockets) throws IOException {
        this.sockets = sockets;
        this.server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("egress-proxy").start(this::acceptLoop);
    }

    public ProxySelector selector() {
        return ProxySelector.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()));
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
            InputStream in = client.getInputStream();
            OutputStream out = client.getOutputStream();
            String head = readHead(in);
            if (head == null) {
                return;
            }
            int eol = head.indexOf("\r\n");
            String[] requestLine = head.substring(0, eol).split(" ");
            if (requestLine.length != 3) {
                answer(out, 400, "Bad Request", "malformed request line");
                return;
            }
            if (requestLine[0].equalsIgnoreCase("CONNECT")) {
                tunnel(requestLine[1], in, out);
            } else {
                forward(requestLine, head.substring(eol + 2), in, out);
            }
        } catch (IOException e) {
            // the client or the target went away; nothing to report
        }
    }

    private void tunnel(String authority, InputStream in, OutputStream out) throws IOException {
        int colon = authority.lastIndexOf(':');
        String host = unbracket(authority.substring(0, colon));
        int port = Integer.parseInt(authority.substring(colon + 1));
        Socket target = dial(host, port, out);
        if (target == null) {
            return;
        }
        try (target) {
            out.write("HTTP/1.1 200 Connection Established\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            pump(in, out, target);
        }
    }

    private void forward(String[] requestLine, String headers, InputStream in, OutputStream out) throws IOException {
        URI uri = URI.create(requestLine[1]);
        if (uri.getHost() == null || !"http".equalsIgnoreCase(uri.getScheme())) {
            answer(out, 400, "Bad Request", "only absolute http:// requests and CONNECT are proxied");
            return;
        }
        int port = uri.getPort() > 0 ? uri.getPort() : 80;
        Socket target = dial(unbracket(uri.getHost()), port, out);
        if (target == null) {
            return;
        }
        try (target) {
            StringBuilder head = new StringBuilder();
            String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            head.append(requestLine[0]).append(' ').append(path)
                    .append(uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()).append(' ').append(requestLine[2])
                    .append("\r\n");
            for (String h : headers.split("\r\n")) {
                String lower = h.toLowerCase(Locale.ROOT);
                if (h.isEmpty() || lower.startsWith("proxy-") || lower.startsWith("connection:")) {
                    continue;
                }
                head.append(h).append("\r\n");
            }
            head.append("Connection: close\r\n\r\n");
            target.getOutputStream().write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            target.getOutputStream().flush();
            relayResponse(in, out, target);
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

    /**
     * Relays a plain-http response, telling the client that this connection closes after it: the
     * proxy serves one request per connection, and a client that reused it would find it gone.
     */
    private static void relayResponse(InputStream clientIn, OutputStream clientOut, Socket target) throws IOException {
        Thread up = upload(clientIn, target);
        try {
            InputStream targetIn = target.getInputStream();
            String head = readHead(targetIn);
            if (head == null) {
                answer(clientOut, 502, "Bad Gateway", "the target closed the connection without a response");
                return;
            }
            StringBuilder rewritten = new StringBuilder();
            for (String line : head.split("\r\n")) {
                String lower = line.toLowerCase(Locale.ROOT);
                if (line.isEmpty() || lower.startsWith("connection:") || lower.startsWith("keep-alive:")
                        || lower.startsWith("proxy-connection:")) {
                    continue;
                }
                rewritten.append(line).append("\r\n");
            }
            rewritten.append("Connection: close\r\n\r\n");
            clientOut.write(rewritten.toString().getBytes(StandardCharsets.ISO_8859_1));
            targetIn.transferTo(clientOut);
            clientOut.flush();
        } finally {
            up.interrupt();
        }
    }

    private static void pump(InputStream clientIn, OutputStream clientOut, Socket target) throws IOException {
        Thread up = upload(clientIn, target);
        try {
            target.getInputStream().transferTo(clientOut);
            clientOut.flush();
        } finally {
            up.interrupt();
        }
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
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
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
        return null;
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
