package dev.backplane.kernel.egress;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reading HTTP/1.1 framing off a stream for the egress proxy: a message head up to its blank line, one
 * CRLF line of a chunked body, and a response's status code. Heads and lines are capped at
 * {@link #MAX_HEAD} bytes, so a peer cannot make the proxy buffer without end.
 */
final class HttpWire {

    static final int MAX_HEAD = 64 * 1024;
    static final int BUFFER = 16 * 1024;

    private HttpWire() {
    }

    /** One message head through its blank line (ISO-8859-1), or null when the stream ends first. */
    static String readHead(InputStream in) throws IOException {
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
    static String readLine(InputStream in) throws IOException {
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

    /** Whether a response head is an interim (1xx) answer other than 101 Switching Protocols. */
    static boolean isInterim(String head) {
        String[] statusLine = head.substring(0, head.indexOf("\r\n")).split(" ", 3);
        int status = statusLine.length > 1 ? parseStatus(statusLine[1]) : -1;
        return status >= 100 && status < 200 && status != 101;
    }

    /** A three-digit status code, or -1 when it is none. */
    static int parseStatus(String code) {
        try {
            int status = Integer.parseInt(code);
            return status >= 100 && status <= 999 ? status : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
