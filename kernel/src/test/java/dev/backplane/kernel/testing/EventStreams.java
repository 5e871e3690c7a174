package dev.backplane.kernel.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/**
 * Test clients that call every route (the tenant matrix, the fuzzer) must not hang on a route that
 * answers an endless server-sent-event stream: this body handler reads such an answer up to its first
 * blank line (the first event or comment block) and closes it; any other answer is read whole.
 */
public final class EventStreams {

    private EventStreams() {
    }

    public static HttpResponse.BodyHandler<String> stringOrFirstBlock() {
        return info -> info.headers().firstValue("content-type").filter(v -> v.startsWith("text/event-stream")).isPresent()
                ? HttpResponse.BodySubscribers.mapping(HttpResponse.BodySubscribers.ofInputStream(), EventStreams::firstBlock)
                : HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8);
    }

    private static String firstBlock(InputStream in) {
        StringBuilder text = new StringBuilder();
        try (in) {
            int b;
            while ((b = in.read()) >= 0) {
                text.append((char) b);
                if (text.length() >= 2 && text.charAt(text.length() - 1) == '\n' && text.charAt(text.length() - 2) == '\n') {
                    break;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }
}
