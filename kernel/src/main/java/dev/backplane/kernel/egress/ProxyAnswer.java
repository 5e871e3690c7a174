package dev.backplane.kernel.egress;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * An answer the egress proxy gives the client itself instead of the target's: a malformed request (400),
 * a refusal by the SSRF guard (403, {@code X-Svc-Egress: refused}) or a target it cannot reach or
 * understand (502, {@code X-Svc-Egress: failed}). Every such answer closes the client connection.
 */
record ProxyAnswer(int status, String reason, String message) {

    static ProxyAnswer badRequest(String message) {
        return new ProxyAnswer(400, "Bad Request", message);
    }

    static ProxyAnswer forbidden(String message) {
        return new ProxyAnswer(403, "Forbidden", message);
    }

    static ProxyAnswer badGateway(String message) {
        return new ProxyAnswer(502, "Bad Gateway", message);
    }

    /** The whole response: head and plain-text body. */
    byte[] bytes() {
        byte[] body = message.getBytes(StandardCharsets.UTF_8);
        byte[] head = ("HTTP/1.1 " + status + " " + reason + "\r\nContent-Type: text/plain; charset=utf-8\r\n"
                + "X-Svc-Egress: " + (status == 403 ? "refused" : "failed") + "\r\nContent-Length: " + body.length
                + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[head.length + body.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        return all;
    }

    void writeTo(OutputStream out) throws IOException {
        out.write(bytes());
        out.flush();
    }
}
