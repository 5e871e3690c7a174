package dev.backplane.kernel.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/**
 * Test clients that call every route (the tenant matrix, the fuzzer) must not hang on a route that
 * answers an endless server-sent-event stream: such an answer is read up to its first blank line (the
 * first event or comment block) and then closed; any other answer is read whole.
 */
public final class EventStreams {

    private EventStreams() {
    }

    /** Sends {@code request}; the body as text, or an event stream's first block. */
    public static HttpResponse<String> send(HttpClient http, HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<InputStream> r = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        boolean stream = r.headers().firstValue("content-type").filter(v -> v.startsWith("text/event-stream")).isPresent();
        String body;
        try (InputStream in = r.body()) {
            body = stream ? firstBlock(in) : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        return new Text(r, body);
    }

    private static String firstBlock(InputStream in) throws IOException {
        StringBuilder text = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0) {
            text.append((char) b);
            if (text.length() >= 2 && text.charAt(text.length() - 1) == '\n' && text.charAt(text.length() - 2) == '\n') {
                break;
            }
        }
        return text.toString();
    }

    /** The response with its body read as text. */
    private record Text(HttpResponse<InputStream> raw, String body) implements HttpResponse<String> {
        @Override
        public int statusCode() {
            return raw.statusCode();
        }

        @Override
        public HttpRequest request() {
            return raw.request();
        }

        @Override
        public java.util.Optional<HttpResponse<String>> previousResponse() {
            return java.util.Optional.empty();
        }

        @Override
        public java.net.http.HttpHeaders headers() {
            return raw.headers();
        }

        @Override
        public java.util.Optional<javax.net.ssl.SSLSession> sslSession() {
            return raw.sslSession();
        }

        @Override
        public java.net.URI uri() {
            return raw.uri();
        }

        @Override
        public HttpClient.Version version() {
            return raw.version();
        }
    }
}
