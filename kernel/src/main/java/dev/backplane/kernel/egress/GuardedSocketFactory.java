package dev.backplane.kernel.egress;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.util.List;
import javax.net.SocketFactory;

/**
 * The socket factory lent to plugins: every connect resolves the host once, checks the address that
 * will actually be dialled against the {@link SsrfGuard}, and dials exactly that address, so a name
 * that changes its answer between registration and use (DNS rebinding) cannot reach a forbidden one.
 */
public final class GuardedSocketFactory extends SocketFactory {

    private final SsrfGuard guard;
    private final int connectTimeoutMillis;

    public GuardedSocketFactory(SsrfGuard guard, int connectTimeoutMillis) {
        this.guard = guard;
        this.connectTimeoutMillis = connectTimeoutMillis;
    }

    /** Whether {@code host} is an IP literal the guard admits (see {@link SsrfGuard#admitsLiteral}). */
    public boolean admitsLiteral(String host) {
        return guard.admitsLiteral(host);
    }

    @Override
    public Socket createSocket() {
        return new GuardedSocket();
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        Socket s = new GuardedSocket();
        s.connect(InetSocketAddress.createUnresolved(host, port), connectTimeoutMillis);
        return s;
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        Socket s = new GuardedSocket();
        s.bind(new InetSocketAddress(localHost, localPort));
        s.connect(InetSocketAddress.createUnresolved(host, port), connectTimeoutMillis);
        return s;
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        Socket s = new GuardedSocket();
        s.connect(new InetSocketAddress(host, port), connectTimeoutMillis);
        return s;
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
        Socket s = new GuardedSocket();
        s.bind(new InetSocketAddress(localAddress, localPort));
        s.connect(new InetSocketAddress(address, port), connectTimeoutMillis);
        return s;
    }

    /** A socket whose connect checks the destination first. */
    private final class GuardedSocket extends Socket {
        @Override
        public void connect(SocketAddress endpoint, int timeout) throws IOException {
            if (!(endpoint instanceof InetSocketAddress isa)) {
                throw new IOException("unsupported address type " + endpoint);
            }
            String host = isa.getHostString();
            InetAddress target;
            try {
                if (isa.isUnresolved()) {
                    List<InetAddress> addresses = guard.check(host);
                    target = addresses.getFirst();
                } else {
                    target = isa.getAddress();
                    guard.checkAddress(host, target);
                }
            } catch (SsrfGuard.Refused e) {
                throw new SsrfRefusedException(e.getMessage());
            }
            super.connect(new InetSocketAddress(target, isa.getPort()), timeout);
        }
    }

    /** A connect refused by the guard; an {@link IOException} so clients report it as a connect failure. */
    public static final class SsrfRefusedException extends java.net.ConnectException {
        public SsrfRefusedException(String message) {
            super(message);
        }
    }

}
