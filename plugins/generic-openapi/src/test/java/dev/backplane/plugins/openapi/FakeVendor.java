package dev.backplane.plugins.openapi;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.backplane.plugin.api.TargetSpec;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * A protocol-level fake vendor: a real HTTP server on loopback answering routes by method and raw path,
 * recording every request it receives.
 */
final class FakeVendor implements AutoCloseable {

    private final HttpServer server;
    private final Map<String, Function<Seen, Reply>> routes = new ConcurrentHashMap<>();
    private final List<Seen> seen = new CopyOnWriteArrayList<>();

    private FakeVendor(HttpServer server) {
        this.server = server;
    }

    static FakeVendor start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            FakeVendor fake = new FakeVendor(server);
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            server.createContext("/", fake::handle);
            server.start();
            return fake;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Answers {@code method rawPath} (path as sent, still percent-encoded) with {@code handler}. */
    FakeVendor on(String method, String rawPath, Function<Seen, Reply> handler) {
        routes.put(method + " " + rawPath, handler);
        return this;
    }

    private void handle(HttpExchange x) throws IOException {
        String body = new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Seen s = new Seen(x.getRequestMethod(), x.getRequestURI().getRawPath(), x.getRequestURI().getRawQuery(),
                x.getRequestHeaders(), body);
        seen.add(s);
        Function<Seen, Reply> route = routes.get(s.method() + " " + s.path());
        Reply reply = route == null ? Reply.json(404, "{\"error\":\"no route " + s.method() + " " + s.path() + "\"}")
                : route.apply(s);
        reply.headers().forEach((k, v) -> x.getResponseHeaders().add(k, v));
        if (reply.contentType() != null) {
            x.getResponseHeaders().set("Content-Type", reply.contentType());
        }
        byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
        x.sendResponseHeaders(reply.status(), bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            x.getResponseBody().write(bytes);
        }
        x.close();
    }

    List<Seen> seen() {
        return List.copyOf(seen);
    }

    long count(String method, String rawPath) {
        return seen.stream().filter(s -> s.method().equals(method) && s.path().equals(rawPath)).count();
    }

    Seen last() {
        return seen.getLast();
    }

    int port() {
        return server.getAddress().getPort();
    }

    /** A plain-HTTP target (extras scheme=http) for this fake. */
    TargetSpec target() {
        return new TargetSpec("fake", "acme", "127.0.0.1", port(), Optional.empty(), true, Optional.empty(),
                Optional.empty(), Map.of("scheme", "http"));
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /** A request the fake received. */
    record Seen(String method, String path, String rawQuery, Headers headers, String body) {
        String header(String name) {
            return headers.getFirst(name);
        }
    }

    /** What the fake answers. */
    record Reply(int status, String contentType, String body, Map<String, String> headers) {
        static Reply json(int status, String body) {
            return new Reply(status, "application/json", body, Map.of());
        }

        static Reply text(int status, String contentType, String body) {
            return new Reply(status, contentType, body, Map.of());
        }

        static Reply empty(int status) {
            return new Reply(status, null, "", Map.of());
        }

        Reply withHeader(String name, String value) {
            Map<String, String> h = new java.util.LinkedHashMap<>(headers);
            h.put(name, value);
            return new Reply(status, contentType, body, h);
        }
    }
}
