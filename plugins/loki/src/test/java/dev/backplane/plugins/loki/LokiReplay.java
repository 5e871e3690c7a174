package dev.backplane.plugins.loki;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.testing.LoopbackHttp;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback server answering Loki's HTTP API with hand-built answers in the shapes Loki's API
 * documentation gives (Loki publishes no OpenAPI document to check them against; Debian packages no
 * Grafana Loki to run). It behaves like a multi-tenant Loki behind a basic-auth gateway: a request
 * without the tenant header or with the wrong password is 401, a LogQL parse error is 400 with
 * Loki's plain-text message. It records each query it received.
 */
final class LokiReplay implements AutoCloseable {

    static final String USER = "loki-reader";
    static final String PASSWORD = "loki-pass-" + Long.toHexString(System.nanoTime());
    static final String ORG = "tenant-a";
    /** Nanosecond times of the three log lines, oldest first. */
    static final String T1 = "1763942400000000001";
    static final String T2 = "1763942401000000002";
    static final String T3 = "1763942402000000003";

    private final HttpServer server;
    final List<Map<String, String>> queries = new CopyOnWriteArrayList<>();

    LokiReplay() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::answer);
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    private void answer(HttpExchange x) throws IOException {
        String auth = String.valueOf(x.getRequestHeaders().getFirst("Authorization"));
        if (!auth.equals(LoopbackHttp.basic(USER, PASSWORD))) {
            LoopbackHttp.answer(x, 401, "text/plain", "Unauthorized\n");
            return;
        }
        if (!ORG.equals(x.getRequestHeaders().getFirst("X-Scope-OrgID"))) {
            LoopbackHttp.answer(x, 401, "text/plain", "no org id\n");
            return;
        }
        Map<String, String> q = query(x.getRequestURI().getRawQuery());
        q.put("path", x.getRequestURI().getPath());
        queries.add(q);
        String logql = q.getOrDefault("query", "");
        switch (x.getRequestURI().getPath()) {
            case "/loki/api/v1/status/buildinfo" -> LoopbackHttp.answer(x, 200, "application/json", """
                    {"version": "3.4.2", "revision": "a1b2c3d", "branch": "release-3.4.x", "buildUser": "root@builder",
                     "buildDate": "2026-01-15T10:00:00Z", "goVersion": "go1.23.6"}""");
            case "/loki/api/v1/query_range", "/loki/api/v1/query" -> {
                if (!logql.startsWith("{") && !logql.startsWith("sum") && !logql.startsWith("count")) {
                    LoopbackHttp.answer(x, 400, "text/plain",
                            "parse error at line 1, col 1: syntax error: unexpected IDENTIFIER\n");
                } else if (logql.startsWith("{")) {
                    LoopbackHttp.answer(x, 200, "application/json", """
                            {"status": "success", "data": {"resultType": "streams", "result": [
                              {"stream": {"app": "web", "env": "prod"}, "values": [["%s", "GET / 200"], ["%s", "GET /x 500 error"]]},
                              {"stream": {"app": "db", "env": "prod"}, "values": [["%s", "slow query error"]]}],
                             "stats": {"summary": {"totalLinesProcessed": 3}}}}""".formatted(T3, T1, T2));
                } else if (x.getRequestURI().getPath().endsWith("query")) {
                    LoopbackHttp.answer(x, 200, "application/json", """
                            {"status": "success", "data": {"resultType": "vector", "result": [
                              {"metric": {"app": "web"}, "value": [1763942400.5, "2"]},
                              {"metric": {"app": "db"}, "value": [1763942400.5, "1"]}]}}""");
                } else {
                    LoopbackHttp.answer(x, 200, "application/json", """
                            {"status": "success", "data": {"resultType": "matrix", "result": [
                              {"metric": {"app": "web"}, "values": [[1763942400, "1"], [1763942460, "2"]]}]}}""");
                }
            }
            case "/loki/api/v1/labels" -> LoopbackHttp.answer(x, 200, "application/json",
                    "{\"status\": \"success\", \"data\": [\"app\", \"env\"]}");
            case "/loki/api/v1/label/app/values" -> LoopbackHttp.answer(x, 200, "application/json",
                    "{\"status\": \"success\", \"data\": [\"db\", \"web\"]}");
            case "/loki/api/v1/series" -> LoopbackHttp.answer(x, 200, "application/json", """
                    {"status": "success", "data": [{"app": "web", "env": "prod"}, {"app": "db", "env": "prod"}]}""");
            default -> LoopbackHttp.answer(x, 404, "text/plain", "404 page not found\n");
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> out = new LinkedHashMap<>();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                String[] kv = pair.split("=", 2);
                out.put(URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
                        kv.length > 1 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
            }
        }
        return out;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
