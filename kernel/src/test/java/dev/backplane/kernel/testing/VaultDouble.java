package dev.backplane.kernel.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A HashiCorp Vault double speaking the real KV v2 and AppRole HTTP protocol on a loopback socket
 * (no Vault binary can be installed here): {@code GET/POST /v1/<mount>/data/<path>},
 * {@code POST /v1/auth/approle/login}. Paths under {@code denied/} (or ending {@code /denied}) answer 403 like a policy would.
 */
public final class VaultDouble implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    public static final String ROOT_TOKEN = "root-" + UUID.randomUUID();
    public static final String ROLE_ID = "role-" + UUID.randomUUID();
    public static final String SECRET_ID = "secret-" + UUID.randomUUID();

    private final HttpServer server;
    private final String mount;
    private final Map<String, JsonNode> data = new ConcurrentHashMap<>();
    private final Map<String, Boolean> tokens = new ConcurrentHashMap<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private volatile int logins;

    public VaultDouble(String mount) throws IOException {
        this.mount = mount;
        tokens.put(ROOT_TOKEN, true);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    public String address() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Each request as "METHOD path namespace=<header>". */
    public List<String> requests() {
        return requests;
    }

    public int logins() {
        return logins;
    }

    public void revokeAll() {
        tokens.keySet().removeIf(t -> !t.equals(ROOT_TOKEN));
    }

    public void put(String path, Map<String, String> fields) {
        data.put(path, JSON.valueToTree(fields));
    }

    private void handle(HttpExchange x) throws IOException {
        String path = x.getRequestURI().getPath();
        String method = x.getRequestMethod();
        requests.add(method + " " + path + " namespace=" + x.getRequestHeaders().getFirst("X-Vault-Namespace"));
        byte[] body = x.getRequestBody().readAllBytes();
        if (method.equals("POST") && path.equals("/v1/auth/approle/login")) {
            JsonNode req = JSON.readTree(body);
            if (!ROLE_ID.equals(req.path("role_id").asText()) || !SECRET_ID.equals(req.path("secret_id").asText())) {
                send(x, 400, Map.of("errors", List.of("invalid role or secret ID")));
                return;
            }
            logins++;
            String token = "approle-" + UUID.randomUUID();
            tokens.put(token, true);
            send(x, 200, Map.of("auth", Map.of("client_token", token, "lease_duration", 3600)));
            return;
        }
        String token = x.getRequestHeaders().getFirst("X-Vault-Token");
        if (token == null || !tokens.containsKey(token)) {
            send(x, 403, Map.of("errors", List.of("permission denied")));
            return;
        }
        String prefix = "/v1/" + mount + "/data/";
        if (!path.startsWith(prefix)) {
            send(x, 404, Map.of("errors", List.of()));
            return;
        }
        String key = path.substring(prefix.length());
        if (key.startsWith("denied/") || key.endsWith("/denied")) {
            send(x, 403, Map.of("errors", List.of("1 error occurred:\n\t* permission denied\n\n")));
            return;
        }
        if (method.equals("GET")) {
            JsonNode d = data.get(key);
            if (d == null) {
                send(x, 404, Map.of("errors", List.of()));
            } else {
                send(x, 200, Map.of("data", Map.of("data", d, "metadata", Map.of("version", 1))));
            }
        } else if (method.equals("POST")) {
            data.put(key, JSON.readTree(body).path("data"));
            send(x, 200, Map.of("data", Map.of("version", 1)));
        } else {
            send(x, 405, Map.of("errors", List.of("unsupported")));
        }
    }

    private static void send(HttpExchange x, int status, Object body) throws IOException {
        byte[] bytes = JSON.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().add("Content-Type", "application/json");
        x.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
