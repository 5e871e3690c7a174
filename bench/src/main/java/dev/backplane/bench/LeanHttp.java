package dev.backplane.bench;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A load generator's HTTP/1.1 client, in the spirit of wrk: requests are serialized once, ahead of the run, and sent
 * over keep-alive connections taken from a pool (one request at a time per connection); the answer's status line and
 * headers are read, its body read and dropped.
 *
 * <p>Why the benches do not use the JDK's {@code HttpClient} for open-loop load: the client runs in the measured JVM
 * on the same two cores, and a profile of the events bench at 2,000/s put 35 % of that JVM's samples in the
 * {@code HttpClient}. What a server's latency should not include is its load generator's CPU.
 *
 * <p>Like wrk's {@code -c}, it holds at most {@link #MAX_CONNECTIONS} connections; a request beyond them waits for
 * one to come back (the open loop counts that wait, since latency runs from a request's scheduled start). Unbounded,
 * a server falling behind would make it open a connection per request in flight until the process, which the
 * kernel under test shares, runs out of file descriptors.
 */
final class LeanHttp implements AutoCloseable {

    static final int MAX_CONNECTIONS = 1_000;

    private final InetSocketAddress address;
    private final String hostHeader;
    private final ConcurrentLinkedQueue<Connection> idle = new ConcurrentLinkedQueue<>();
    private final java.util.concurrent.Semaphore connections = new java.util.concurrent.Semaphore(MAX_CONNECTIONS);

    LeanHttp(URI base) {
        this.address = new InetSocketAddress(base.getHost(), base.getPort());
        this.hostHeader = base.getHost() + ":" + base.getPort();
    }

    /** A request serialized once: method, the URI's path and query, headers, body. */
    byte[] request(String method, URI uri, Map<String, String> headers, byte[] body) {
        StringBuilder head = new StringBuilder(256).append(method).append(' ').append(uri.getRawPath());
        if (uri.getRawQuery() != null) {
            head.append('?').append(uri.getRawQuery());
        }
        head.append(" HTTP/1.1\r\nHost: ").append(hostHeader).append("\r\nContent-Length: ").append(body.length)
                .append("\r\n");
        headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
        byte[] h = head.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[h.length + body.length];
        System.arraycopy(h, 0, out, 0, h.length);
        System.arraycopy(body, 0, out, h.length, body.length);
        return out;
    }

    /** Sends a serialized request and returns the answer's status code (the body is read and dropped). */
    int send(byte[] request) throws IOException {
        connections.acquireUninterruptibly();
        try {
            Connection pooled = idle.poll();
            if (pooled != null) {
                try {
                    return send(pooled, request);
                } catch (IOException e) {
                    // the server closed the idle connection (its keep-alive timeout): once more on a new one
                }
            }
            return send(open(), request);
        } finally {
            connections.release();
        }
    }

    private Connection open() throws IOException {
        Socket socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(address, 5_000);
        return new Connection(socket);
    }

    private int send(Connection c, byte[] request) throws IOException {
        try {
            c.out.write(request);
            c.out.flush();
            int status = c.readAnswer();
            if (c.keepAlive) {
                idle.add(c);
            } else {
                c.socket.close();
            }
            return status;
        } catch (IOException | RuntimeException e) {
            c.socket.close();
            throw e;
        }
    }

    @Override
    public void close() {
        for (Connection c; (c = idle.poll()) != null; ) {
            try {
                c.socket.close();
            } catch (IOException ignored) {
                // closing an idle loopback connection
            }
        }
    }

    private static final class Connection {

        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private boolean keepAlive;

        Connection(Socket socket) throws IOException {
            this.socket = socket;
            this.in = new BufferedInputStream(socket.getInputStream(), 8192);
            this.out = socket.getOutputStream();
        }

        int readAnswer() throws IOException {
            String statusLine = line();
            if (!statusLine.startsWith("HTTP/1.1 ") || statusLine.length() < 12) {
                throw new IOException("not an HTTP/1.1 answer: " + statusLine);
            }
            int status = Integer.parseInt(statusLine.substring(9, 12));
            long length = 0;
            boolean chunked = false;
            keepAlive = true;
            for (String header = line(); !header.isEmpty(); header = line()) {
                String h = header.toLowerCase(Locale.ROOT);
                if (h.startsWith("content-length:")) {
                    length = Long.parseLong(h.substring(15).trim());
                } else if (h.startsWith("transfer-encoding:") && h.contains("chunked")) {
                    chunked = true;
                } else if (h.startsWith("connection:") && h.contains("close")) {
                    keepAlive = false;
                }
            }
            if (chunked) {
                for (long size = Long.parseLong(line().split(";")[0].trim(), 16); size > 0;
                     size = Long.parseLong(line().split(";")[0].trim(), 16)) {
                    skip(size);
                    line();
                }
                while (!line().isEmpty()) {
                    // trailers
                }
            } else {
                skip(length);
            }
            return status;
        }

        private void skip(long n) throws IOException {
            while (n > 0) {
                long s = in.skip(n);
                if (s <= 0) {
                    if (in.read() < 0) {
                        throw new IOException("the connection closed inside an answer");
                    }
                    s = 1;
                }
                n -= s;
            }
        }

        private String line() throws IOException {
            StringBuilder sb = new StringBuilder(64);
            for (int b = in.read(); ; b = in.read()) {
                if (b < 0) {
                    throw new IOException("the connection closed inside an answer");
                }
                if (b == '\n') {
                    int end = sb.length();
                    return end > 0 && sb.charAt(end - 1) == '\r' ? sb.substring(0, end - 1) : sb.toString();
                }
                sb.append((char) b);
            }
        }
    }
}
