package dev.backplane.kernel.docs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.testing.LoopbackHttp;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;

/**
 * A corpus-over-HTTP retrieval service on a real loopback socket, speaking the protocol the
 * backplane's corpus-http backend uses: POST {query, limit, filters} → {chunks: [...]}. Each path
 * serves one corpus; a passage matches when it shares a word with the query, ranked by how many.
 * It records every request so tests can see what the backplane sent.
 */
final class FakeCorpus implements AutoCloseable {

    /** A document passage of a corpus. */
    record Doc(String id, String title, String url, String text) {
    }

    /** One request as the fake received it. */
    record Seen(String path, JsonNode body, String authorization, String customHeader) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpServer server;
    private final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());

    FakeCorpus(Map<String, List<Doc>> corpora) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        corpora.forEach((path, docs) -> server.createContext(path, ex -> search(ex, docs)));
        server.createContext("/broken", ex -> answer(ex, 500, "{\"error\": \"index offline\"}"));
        server.createContext("/garbage", ex -> answer(ex, 200, "<html>not json</html>"));
        server.createContext("/slow", ex -> {
            try {
                Thread.sleep(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            answer(ex, 200, "{\"chunks\": []}");
        });
        server.start();
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    List<Seen> seen() {
        return List.copyOf(seen);
    }

    Seen last(String path) {
        List<Seen> all = seen();
        for (int i = all.size() - 1; i >= 0; i--) {
            if (all.get(i).path().equals(path)) {
                return all.get(i);
            }
        }
        throw new AssertionError("no request to " + path + " among " + all);
    }

    private void search(HttpExchange ex, List<Doc> docs) throws IOException {
        JsonNode body = JSON.readTree(ex.getRequestBody().readAllBytes());
        seen.add(new Seen(ex.getHttpContext().getPath(), body, ex.getRequestHeaders().getFirst("Authorization"),
                ex.getRequestHeaders().getFirst("X-Corpus-Tenant")));
        if (!ex.getRequestMethod().equals("POST") || !body.path("query").isTextual() || !body.path("limit").isInt()) {
            answer(ex, 400, "{\"error\": \"bad request\"}");
            return;
        }
        List<String> words = words(body.path("query").asText());
        record Scored(Doc doc, long score) {
        }
        List<Scored> hits = docs.stream().map(d -> new Scored(d, words(d.title() + " " + d.text()).stream()
                        .distinct().filter(words::contains).count()))
                .filter(s -> s.score() > 0).sorted(Comparator.comparingLong(Scored::score).reversed()).toList();
        ObjectNode out = JSON.createObjectNode();
        ArrayNode chunks = out.putArray("chunks");
        for (Scored s : hits.subList(0, Math.min(hits.size(), body.path("limit").asInt()))) {
            chunks.addObject().put("id", s.doc().id()).put("text", s.doc().text()).put("title", s.doc().title())
                    .put("url", s.doc().url()).put("score", (double) s.score());
        }
        answer(ex, 200, out.toString());
    }

    private static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        for (String w : text.toLowerCase(Locale.ROOT).split("[^a-z0-9_]+")) {
            if (w.length() > 2) {
                out.add(w);
            }
        }
        return out;
    }

    private static void answer(HttpExchange ex, int status, String body) throws IOException {
        LoopbackHttp.answer(ex, status, "application/json", body);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
