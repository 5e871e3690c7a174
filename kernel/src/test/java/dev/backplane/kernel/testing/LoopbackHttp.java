package dev.backplane.kernel.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/** Plain-HTTP targets on loopback for the fixture connectors that really connect ({@link TestPlugins.Spec#httpProbe}). */
public final class LoopbackHttp {

    private LoopbackHttp() {
    }

    /** A started server on a free loopback port that hands every request to {@code handler}. */
    public static HttpServer start(HttpHandler handler) {
        return start(handler, null);
    }

    /** As {@link #start(HttpHandler)}, requests handled on {@code executor} (null: one at a time, in order). */
    public static HttpServer start(HttpHandler handler, java.util.concurrent.Executor executor) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.setExecutor(executor);
            server.createContext("/", handler);
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The {@code Authorization} value of HTTP Basic for {@code user:password}. */
    public static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** What {@code GET /items?count=n} answers to a fixture connector: {@code item-0} to {@code item-(n-1)}, one a line. */
    public static String items(HttpExchange x) {
        int n = Integer.parseInt(x.getRequestURI().getQuery().replace("count=", ""));
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append("item-").append(i).append('\n');
        }
        return b.toString();
    }

    /** Answers {@code GET /items?count=n} as {@link #items} and any other path with {@code otherwise}, all 200. */
    public static void itemsOr(HttpExchange x, String otherwise) throws IOException {
        answer(x, 200, x.getRequestURI().getPath().equals("/items") ? items(x) : otherwise);
    }

    /**
     * A form-encoded body or query string ({@code a=1&b=x%20y}) as its decoded fields, in order; null or empty
     * is no fields, and a pair without a name or an {@code =} is skipped.
     */
    public static Map<String, String> form(String raw) {
        Map<String, String> out = new LinkedHashMap<>();
        if (raw != null && !raw.isEmpty()) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
        }
        return out;
    }

    /** Sends {@code body} as {@code contentType} with {@code status} and closes the exchange. */
    public static void answer(HttpExchange x, int status, String contentType, String body) throws IOException {
        x.getResponseHeaders().set("Content-Type", contentType);
        answer(x, status, body);
    }

    /** Sends {@code body} with {@code status} and closes the exchange. */
    public static void answer(HttpExchange x, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        x.sendResponseHeaders(status, bytes.length);
        x.getResponseBody().write(bytes);
        x.close();
    }
}
