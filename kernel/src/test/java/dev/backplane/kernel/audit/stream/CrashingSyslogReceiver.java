package dev.backplane.kernel.audit.stream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * A TLS syslog receiver on loopback that crashes on its first connection: it completes the handshake, reads a few
 * bytes and drops the connection without a close_notify (as a receiver killed mid-read does), leaving the rest of
 * what was sent unread. Every later connection it reads to the sender's close_notify, keeps the messages (RFC 5425
 * frames) and closes properly.
 */
final class CrashingSyslogReceiver implements AutoCloseable {

    private final ServerSocket server;
    private final SSLContext tls;
    private final List<String> messages = new CopyOnWriteArrayList<>();
    private final Thread thread;

    CrashingSyslogReceiver(SSLContext tls) throws IOException {
        this.tls = tls;
        this.server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        this.thread = Thread.ofVirtual().start(this::serve);
    }

    int port() {
        return server.getLocalPort();
    }

    List<String> messages() {
        return messages;
    }

    private void serve() {
        boolean first = true;
        while (!server.isClosed()) {
            try (Socket plain = server.accept()) {
                SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket(plain, null, plain.getPort(), false);
                socket.setUseClientMode(false);
                socket.startHandshake();
                InputStream in = socket.getInputStream();
                if (first) {
                    first = false;
                    in.readNBytes(64);
                    plain.setSoLinger(true, 0); // a reset, no close_notify: what a crash looks like to the sender
                    continue;
                }
                ByteArrayOutputStream all = new ByteArrayOutputStream();
                in.transferTo(all); // up to the sender's close_notify
                // kept before the reply close_notify: the sender counts the delivery done once it reads that
                messages.addAll(frames(all.toByteArray()));
                socket.close();
            } catch (IOException e) {
                // a broken connection: the next one
            }
        }
    }

    private static List<String> frames(byte[] bytes) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < bytes.length) {
            int space = i;
            while (bytes[space] != ' ') {
                space++;
            }
            int length = Integer.parseInt(new String(bytes, i, space - i, StandardCharsets.US_ASCII));
            out.add(new String(bytes, space + 1, length, StandardCharsets.UTF_8));
            i = space + 1 + length;
        }
        return out;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        server.close();
        thread.join(5000);
    }
}
