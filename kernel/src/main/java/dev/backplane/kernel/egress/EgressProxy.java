package dev.backplane.kernel.egress;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
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
import java.net.SocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Optional;

/**
 * The HTTP egress of plugins. The JDK {@link java.net.http.HttpClient} accepts no socket factory, so
 * the client lent to plugins sends everything through this small proxy on loopback: {@code CONNECT}
 * tunnels (https, {@link ConnectTunnel}) and absolute-form requests (plain http, {@link PlainHttpRelay}).
 * The proxy dials through the {@link GuardedSocketFactory} ({@link GuardedDial}), so the address actually
 * connected to is checked against the SSRF guard at every connect — a DNS answer that changed since
 * registration cannot reach a forbidden address. TLS stays end to end between the plugin and the target.
 * A request to an IP literal the guard admits goes straight to the target ({@link #selector()}): there is
 * no name to resolve again.
 */
public final class EgressProxy implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(EgressProxy.class.getName());
    /** How long a kept-alive plain-http client connection may sit idle between requests. */
    private static final int IDLE_MILLIS = 120_000;

    private final ServerSocket server;
    private final GuardedSocketFactory sockets;
    private final GuardedDial dial;
    private final ConnectTunnel tunnel;

    public EgressProxy(GuardedSocketFactory sockets) throws IOException {
        this.sockets = sockets;
        this.dial = new GuardedDial(sockets);
        this.tunnel = new ConnectTunnel(dial);
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
            public void connectFailed(URI uri, SocketAddress address, IOException e) {
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

    /** One client connection: its first head decides between a tunnel and plain-http forwarding. */
    private void serve(Socket client) {
        try (client) {
            client.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(client.getInputStream(), HttpWire.BUFFER);
            OutputStream out = new BufferedOutputStream(client.getOutputStream(), HttpWire.BUFFER);
            client.setSoTimeout(IDLE_MILLIS);
            String head = HttpWire.readHead(in);
            if (head == null) {
                return;
            }
            Optional<String> connect = RequestHead.connectAuthority(head);
            if (connect.isPresent()) {
                client.setSoTimeout(0); // a tunnel lives as long as the client keeps its pooled connection
                tunnel.serve(connect.get(), in, client.getOutputStream()); // unbuffered: TLS records pass at once
            } else {
                new PlainHttpRelay(client, in, out, dial, IDLE_MILLIS).serve(head);
            }
        } catch (IOException e) {
            // the client or the target went away; nothing to report
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
