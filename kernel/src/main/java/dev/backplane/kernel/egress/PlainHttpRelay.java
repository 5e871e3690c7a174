package dev.backplane.kernel.egress;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Plain-http forwarding with keep-alive on both sides: each request's body and each response's body
 * is framed (Content-Length, chunked, or to end of stream), so one client connection carries many
 * requests and the connection to the target is reused while the client keeps asking the same
 * host and port. A request for another host closes the old target connection and dials anew —
 * through the guard, as every dial.
 */
final class PlainHttpRelay {

    private final Socket client;
    private final InputStream in;
    private final OutputStream out;
    private final GuardedDial dial;
    private final int idleMillis;
    private Authority upstreamAuthority;
    private Socket upstream;
    private InputStream upIn;
    private OutputStream upOut;

    PlainHttpRelay(Socket client, InputStream in, OutputStream out, GuardedDial dial, int idleMillis) {
        this.client = client;
        this.in = in;
        this.out = out;
        this.dial = dial;
        this.idleMillis = idleMillis;
    }

    /** Serves requests, starting with {@code firstHead}, until either side closes. */
    void serve(String firstHead) throws IOException {
        try {
            String head = firstHead;
            while (head != null && exchange(head)) {
                client.setSoTimeout(idleMillis);
                head = HttpWire.readHead(in);
            }
        } finally {
            closeUpstream();
        }
    }

    /** One request and its response; false when the client connection must close afterwards. */
    private boolean exchange(String head) throws IOException {
        client.setSoTimeout(0);
        RequestHead.Plain request;
        switch (RequestHead.parse(head)) {
            case RequestHead.Malformed malformed -> {
                malformed.answer().writeTo(out);
                return false;
            }
            case RequestHead.Plain plain -> request = plain;
        }
        Authority target = request.target();
        if (!target.equals(upstreamAuthority)) {
            closeUpstream();
            Socket socket = dial.dial(target, out);
            if (socket == null) {
                return false;
            }
            socket.setTcpNoDelay(true);
            upstream = socket;
            upstreamAuthority = target;
            upIn = new BufferedInputStream(socket.getInputStream(), HttpWire.BUFFER);
            upOut = new BufferedOutputStream(socket.getOutputStream(), HttpWire.BUFFER);
        }
        boolean clientCloses = request.clientCloses();
        String forwarded = request.forwardedHead();
        if (request.expectsContinue()) {
            out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
        upOut.write(forwarded.getBytes(StandardCharsets.ISO_8859_1));
        BodyFraming.copyBody(request.headers(), false, in, upOut);
        upOut.flush();
        return relayResponse(request.method(), clientCloses);
    }

    private boolean relayResponse(String method, boolean clientCloses) throws IOException {
        String head = HttpWire.readHead(upIn);
        while (head != null && HttpWire.isInterim(head)) {
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            head = HttpWire.readHead(upIn);
        }
        if (head == null) {
            closeUpstream();
            ProxyAnswer.badGateway("the target closed the connection without a response").writeTo(out);
            return false;
        }
        List<String> lines = List.of(head.split("\r\n"));
        String[] statusLine = lines.getFirst().split(" ", 3);
        int status = statusLine.length > 1 ? HttpWire.parseStatus(statusLine[1]) : -1;
        if (status < 0) {
            closeUpstream();
            ProxyAnswer.badGateway("the target answered with a malformed status line").writeTo(out);
            return false;
        }
        Headers response = Headers.of(lines);
        boolean noBody = method.equalsIgnoreCase("HEAD") || status == 204 || status == 304;
        boolean toEnd = !noBody && !response.has("transfer-encoding", "chunked") && response.contentLength() < 0;
        boolean upstreamCloses = toEnd || response.has("connection", "close")
                || statusLine[0].equalsIgnoreCase("HTTP/1.0");
        boolean closeClient = clientCloses || toEnd;
        StringBuilder relayed = new StringBuilder(lines.getFirst()).append("\r\n");
        response.appendHopByHopFree(relayed, "proxy-connection:");
        if (closeClient) {
            relayed.append("Connection: close\r\n");
        }
        relayed.append("\r\n");
        out.write(relayed.toString().getBytes(StandardCharsets.ISO_8859_1));
        if (toEnd) {
            BodyFraming.copyFlushing(upIn, out);
        } else if (!noBody) {
            BodyFraming.copyBody(response, true, upIn, out);
        }
        out.flush();
        if (upstreamCloses) {
            closeUpstream();
        }
        return !closeClient;
    }

    private void closeUpstream() {
        if (upstream != null) {
            try {
                upstream.close();
            } catch (IOException ignored) {
                // already gone
            }
        }
        upstream = null;
        upstreamAuthority = null;
    }
}
