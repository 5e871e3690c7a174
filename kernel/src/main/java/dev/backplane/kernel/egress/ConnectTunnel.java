package dev.backplane.kernel.egress;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * One {@code CONNECT} tunnel of the egress proxy: the target is dialled through the guard, then bytes pass
 * both ways unread (TLS stays end to end between the plugin and the target) until either side closes.
 */
final class ConnectTunnel {

    private final GuardedDial dial;

    ConnectTunnel(GuardedDial dial) {
        this.dial = dial;
    }

    /** Serves the tunnel to {@code authority}; {@code out} should be unbuffered so TLS records pass at once. */
    void serve(String authority, InputStream in, OutputStream out) throws IOException {
        Optional<Authority> target = Authority.ofConnect(authority);
        if (target.isEmpty()) {
            ProxyAnswer.badRequest("CONNECT needs host:port").writeTo(out);
            return;
        }
        Socket socket = dial.dial(target.get(), out);
        if (socket == null) {
            return;
        }
        try (socket) {
            socket.setTcpNoDelay(true);
            out.write("HTTP/1.1 200 Connection Established\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Thread up = upload(in, socket);
            try {
                socket.getInputStream().transferTo(out);
                out.flush();
            } finally {
                up.interrupt();
            }
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
}
