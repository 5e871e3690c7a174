package dev.backplane.kernel.egress;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Copying one message body through the egress proxy exactly as its headers frame it (chunked,
 * Content-Length, or to the end of the stream), so a kept-alive connection stays in step on both sides;
 * a body that ends early or is malformed is an error and the connection closes.
 */
final class BodyFraming {

    private static final byte[] CRLF = {'\r', '\n'};

    private BodyFraming() {
    }

    /** Copies a message body as framed by its headers; a request without framing has no body. */
    static void copyBody(Headers headers, boolean isResponse, InputStream from, OutputStream to) throws IOException {
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

    static void copyChunked(InputStream from, OutputStream to) throws IOException {
        while (true) {
            String sizeLine = HttpWire.readLine(from);
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
                    trailer = HttpWire.readLine(from);
                    to.write((trailer + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                } while (!trailer.isEmpty());
                return;
            }
            if (!copyExactly(from, to, size)) {
                throw new IOException("chunk ended early");
            }
            String end = HttpWire.readLine(from);
            if (!end.isEmpty()) {
                throw new IOException("malformed chunk end");
            }
            to.write(CRLF);
            to.flush(); // a streamed response (logs, watches) reaches the client chunk by chunk
        }
    }

    /** Copies to the end of the stream, flushing each read so a streamed body is not held back. */
    static void copyFlushing(InputStream from, OutputStream to) throws IOException {
        byte[] buf = new byte[HttpWire.BUFFER];
        for (int n; (n = from.read(buf)) >= 0; ) {
            to.write(buf, 0, n);
            to.flush();
        }
    }

    /** Copies exactly {@code length} bytes; false when the stream ends first. */
    static boolean copyExactly(InputStream from, OutputStream to, long length) throws IOException {
        byte[] buf = new byte[(int) Math.min(HttpWire.BUFFER, Math.max(1, length))];
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
}
