package dev.backplane.kernel.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Google Secret Manager at the protocol level, on a loopback socket: the three calls the backplane makes
 * (create a secret, add a version, access a version), with the v1 REST paths, bodies and status codes,
 * behind a bearer token. Google's service cannot be installed here; this keeps its wire contract and
 * state (each secret's versions) so the cloudsm backend runs unchanged against it.
 */
public final class SecretManagerDouble implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern SECRET = Pattern.compile("/v1/projects/([^/]+)/secrets/([^/:]+)(:addVersion|/versions/"
            + "([^/:]+):access)");
    private static final Pattern CREATE = Pattern.compile("/v1/projects/([^/]+)/secrets");

    private final HttpServer server;
    private final String token;
    /** project/secret → its versions' payloads (base64), oldest first. */
    private final Map<String, List<String>> secrets = new ConcurrentHashMap<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();

    private SecretManagerDouble(HttpServer server, String token) {
        this.server = server;
        this.token = token;
    }

    public static SecretManagerDouble start(String token) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        SecretManagerDouble d = new SecretManagerDouble(server, token);
        server.createContext("/", x -> {
            String path = x.getRequestURI().getPath();
            d.requests.add(x.getRequestMethod() + " " + path);
            int status;
            Object body;
            if (!("Bearer " + token).equals(x.getRequestHeaders().getFirst("Authorization"))) {
                status = 401;
                body = error(401, "UNAUTHENTICATED");
            } else {
                byte[] in = x.getRequestBody().readAllBytes();
                Matcher m = SECRET.matcher(path);
                Matcher c = CREATE.matcher(path);
                if (x.getRequestMethod().equals("POST") && c.matches() && x.getRequestURI().getQuery() != null
                        && x.getRequestURI().getQuery().startsWith("secretId=")) {
                    String key = c.group(1) + "/" + x.getRequestURI().getQuery().substring("secretId=".length());
                    boolean created = d.secrets.putIfAbsent(key, new CopyOnWriteArrayList<>()) == null;
                    status = created ? 200 : 409;
                    body = created ? Map.of("name", "projects/" + key.replace("/", "/secrets/")) : error(409, "ALREADY_EXISTS");
                } else if (x.getRequestMethod().equals("POST") && m.matches() && m.group(3).equals(":addVersion")) {
                    List<String> versions = d.secrets.get(m.group(1) + "/" + m.group(2));
                    if (versions == null) {
                        status = 404;
                        body = error(404, "NOT_FOUND");
                    } else {
                        JsonNode req = JSON.readTree(in);
                        versions.add(req.path("payload").path("data").asText());
                        status = 200;
                        body = Map.of("name", "projects/" + m.group(1) + "/secrets/" + m.group(2) + "/versions/"
                                + versions.size());
                    }
                } else if (x.getRequestMethod().equals("GET") && m.matches() && m.group(4) != null) {
                    List<String> versions = d.secrets.getOrDefault(m.group(1) + "/" + m.group(2), List.of());
                    String v = m.group(4);
                    int index = v.equals("latest") ? versions.size() - 1 : Integer.parseInt(v) - 1;
                    if (index < 0 || index >= versions.size()) {
                        status = 404;
                        body = error(404, "NOT_FOUND");
                    } else {
                        status = 200;
                        body = Map.of("payload", Map.of("data", versions.get(index)));
                    }
                } else {
                    status = 404;
                    body = error(404, "NOT_FOUND");
                }
            }
            byte[] out = JSON.writeValueAsBytes(body);
            x.getResponseHeaders().add("Content-Type", "application/json");
            x.sendResponseHeaders(status, out.length);
            x.getResponseBody().write(out);
            x.close();
        });
        server.start();
        return d;
    }

    private static Map<String, Object> error(int code, String status) {
        return Map.of("error", Map.of("code", code, "status", status));
    }

    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The secret names of a project that exist. */
    public List<String> secretNames(String project) {
        List<String> out = new ArrayList<>();
        secrets.keySet().stream().filter(k -> k.startsWith(project + "/")).forEach(k -> out.add(k.substring(
                project.length() + 1)));
        return out;
    }

    /** A secret's latest version as its JSON fields. */
    public Map<String, String> latest(String project, String secret) throws IOException {
        List<String> versions = secrets.get(project + "/" + secret);
        return JSON.readValue(Base64.getDecoder().decode(versions.getLast()),
                new com.fasterxml.jackson.core.type.TypeReference<Map<String, String>>() { });
    }

    public List<String> requests() {
        return requests;
    }

    public String token() {
        return token;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
