package dev.backplane.kernel.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.util.JsonMapping;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The HTTP answer to one POSTed request, decided late: plain JSON (as always) unless a notification
 * is sent before the response, in which case the answer becomes an SSE stream — the notifications,
 * then the JSON-RPC response as the last event, then the end of the stream (Streamable HTTP; the
 * stream is not resumable, so events carry no ids). Notifications may come from another thread (the
 * progress ticker), hence the lock; a client that goes away mid-stream only stops the writing.
 */
final class SseResponse implements McpStream {

    private final ServerResponse res;
    private final boolean accepts;
    private final ReentrantLock lock = new ReentrantLock();
    private OutputStream out;
    private boolean gone;
    private boolean answered;

    SseResponse(ServerRequest req, ServerResponse res) {
        this.res = res;
        this.accepts = req.headers().first(HeaderNames.ACCEPT).map(a -> a.contains("text/event-stream")).orElse(false);
    }

    @Override
    public boolean streamable() {
        return accepts;
    }

    @Override
    public void notify(ObjectNode notification) {
        lock.lock();
        try {
            if (!accepts || answered || gone) {
                return;
            }
            if (out == null) {
                res.status(Status.OK_200);
                res.header(HeaderNames.CONTENT_TYPE, "text/event-stream");
                res.header(HeaderNames.CACHE_CONTROL, "no-cache");
                res.header("X-Accel-Buffering", "no"); // a buffering proxy would hold the progress back
                out = res.outputStream();
            }
            event(notification);
        } finally {
            lock.unlock();
        }
    }

    /** The response: plain JSON with {@code status} if nothing was streamed, else the stream's last event. */
    void respond(Status status, JsonNode message) {
        lock.lock();
        try {
            answered = true;
            if (out == null) {
                Json.send(res, status, message);
                return;
            }
            event(message);
            out.close();
        } catch (IOException | UncheckedIOException e) {
            gone = true; // the client went away before the end: nothing left to tell it
        } finally {
            lock.unlock();
        }
    }

    private void event(JsonNode message) {
        if (gone) {
            return;
        }
        try {
            out.write(("event: message\ndata: " + JsonMapping.write(message) + "\n\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException | UncheckedIOException e) {
            gone = true;
        }
    }
}
