package dev.backplane.kernel.audit.stream;

import dev.backplane.kernel.audit.integrity.AuditRecord;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * Delivers audit rows to a syslog receiver: RFC 5424 messages over TLS (RFC 5425 octet-counting frames), the
 * receiver's certificate checked against the configured CA and its name against the configured host.
 *
 * <p>Syslog has no acknowledgement, and a flushed TCP write only means the bytes left this process. So each
 * delivery is one TLS connection: the messages, then this side's close_notify, then a wait until the receiver
 * closes its side. A TLS receiver reads records in order, so once it has processed the close_notify it has read
 * every message before it: only then do the rows count as delivered. A connection that breaks or times out before
 * that counts as a failure, and every row of it is sent again, marked as redelivered.
 */
final class SyslogSink implements AuditSink {

    private final String host;
    private final int port;
    private final SSLContext tls;
    private final StreamMessages.Format format;
    private final String hostname;
    private final Duration timeout;

    SyslogSink(String address, Optional<Path> caFile, StreamMessages.Format format, String hostname, Duration timeout) {
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            throw new IllegalArgumentException("audit.stream.syslog.address must be host:port, not '" + address + "'");
        }
        String h = address.substring(0, colon);
        this.host = h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
        try {
            this.port = Integer.parseInt(address.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("audit.stream.syslog.address must be host:port, not '" + address + "'");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("audit.stream.syslog.address: port " + port + " is out of range");
        }
        this.tls = context(caFile);
        this.format = format;
        this.hostname = hostname;
        this.timeout = timeout;
    }

    @Override
    public String name() {
        return "syslog";
    }

    @Override
    public String describe() {
        return "syslog receiver " + host + ":" + port;
    }

    @Override
    public void deliver(List<AuditRecord> rows, long redeliveredUpTo) throws IOException {
        int millis = (int) timeout.toMillis();
        WriteWatchingSocket plain = new WriteWatchingSocket();
        try {
            plain.connect(new InetSocketAddress(host, port), millis);
            plain.setSoTimeout(millis);
            try (SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket(plain, host, port, true)) {
                SSLParameters params = socket.getSSLParameters();
                params.setEndpointIdentificationAlgorithm("HTTPS"); // the certificate must name the host we dialled
                socket.setSSLParameters(params);
                socket.startHandshake();
                OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
                for (AuditRecord row : rows) {
                    out.write(StreamMessages.frame(StreamMessages.syslog(row, row.chainPos() <= redeliveredUpTo,
                            hostname, format)));
                }
                out.flush();
                socket.shutdownOutput(); // close_notify after the last message
                awaitClose(socket.getInputStream());
                plain.throwIfAWriteFailed();
            }
        } finally {
            plain.close();
        }
    }

    /**
     * A TCP socket that remembers a failed write. The JDK's TLS socket swallows a failure to send its close_notify,
     * and on Linux that failed write consumes a reset the receiver sent: the next read then sees a plain end of
     * stream, which the TLS socket takes for the receiver's close_notify. Without this a receiver that crashed
     * mid-read would look like one that read everything.
     */
    private static final class WriteWatchingSocket extends Socket {

        private volatile IOException failed;
        private OutputStream out;

        @Override
        public synchronized OutputStream getOutputStream() throws IOException {
            if (out == null) {
                OutputStream raw = super.getOutputStream();
                out = new OutputStream() {
                    @Override
                    public void write(int b) throws IOException {
                        write(new byte[] {(byte) b}, 0, 1);
                    }

                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        try {
                            raw.write(b, off, len);
                        } catch (IOException e) {
                            failed = e;
                            throw e;
                        }
                    }

                    @Override
                    public void flush() throws IOException {
                        raw.flush();
                    }
                };
            }
            return out;
        }

        void throwIfAWriteFailed() throws IOException {
            if (failed != null) {
                throw new IOException("the receiver broke the connection before reading everything: "
                        + failed.getMessage(), failed);
            }
        }
    }

    /** Reads until the receiver closes its side (it sends nothing else); a timeout or reset is a failure. */
    private static void awaitClose(InputStream in) throws IOException {
        byte[] discard = new byte[512];
        while (in.read(discard) >= 0) {
            // a syslog receiver does not answer; anything it does send is ignored
        }
    }

    private static SSLContext context(Optional<Path> caFile) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            if (caFile.isEmpty()) {
                context.init(null, null, null);
                return context;
            }
            Collection<? extends Certificate> certs;
            try (InputStream in = Files.newInputStream(caFile.get())) {
                certs = CertificateFactory.getInstance("X.509").generateCertificates(in);
            }
            if (certs.isEmpty()) {
                throw new IllegalArgumentException("audit.stream.syslog.ca-file: " + caFile.get()
                        + " holds no certificate (expected PEM)");
            }
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int i = 0;
            for (Certificate cert : certs) {
                store.setCertificateEntry("ca-" + i++, cert);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(store);
            context.init(null, tmf.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("audit.stream.syslog.ca-file: " + caFile.orElse(null)
                    + " cannot be read as PEM certificates (" + e.getMessage() + ")", e);
        }
    }
}
