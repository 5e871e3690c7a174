package dev.backplane.kernel.egress;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;

/**
 * The admission of one proxied call: every dial to a requested host and port goes through the
 * {@link GuardedSocketFactory}, so the address actually connected to is checked by the SSRF guard; a
 * refusal or a network failure is answered to the client here and nothing is dialled.
 */
final class GuardedDial {

    private final GuardedSocketFactory sockets;

    GuardedDial(GuardedSocketFactory sockets) {
        this.sockets = sockets;
    }

    /** The connected target, or null after answering the client why not. */
    Socket dial(Authority target, OutputStream out) throws IOException {
        try {
            return sockets.createSocket(target.host(), target.port());
        } catch (IOException e) {
            refusal(target, e).writeTo(out);
            return null;
        }
    }

    /** What the client hears when the dial fails: 403 when the guard said no, 502 when the network did. */
    static ProxyAnswer refusal(Authority target, IOException failure) {
        if (failure instanceof GuardedSocketFactory.SsrfRefusedException) {
            return ProxyAnswer.forbidden("refused by the backplane's SSRF guard: " + failure.getMessage());
        }
        return ProxyAnswer.badGateway("cannot connect to " + target + ": " + failure.getMessage());
    }
}
