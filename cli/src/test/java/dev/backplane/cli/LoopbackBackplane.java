package dev.backplane.cli;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A backplane (and identity provider) on 127.0.0.1 for in-process CLI tests: answers canned JSON per
 * path and records every request it got, with its User-Agent. A JUnit extension: register it on a
 * field ({@code @RegisterExtension}); each test gets a fresh server and a fresh home for svc's files.
 */
public final class LoopbackBackplane implements BeforeEachCallback, AfterEachCallback {

    /** One request as the server saw it. */
    public record Seen(String method, String path, String userAgent) {
    }

    /** Exit code and captured output of one run. */
    public record Result(int code, String out, String err) {
    }

    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    public final List<Seen> seen = new CopyOnWriteArrayList<>();
    /** The {@code Svc-Api-Level} of every request, "-" when it had none. */
    public final List<String> levels = new CopyOnWriteArrayList<>();
    private final Map<String, String> headers = new ConcurrentHashMap<>();
    /** The body of the last request per path. */
    public final Map<String, String> bodies = new ConcurrentHashMap<>();
    private HttpServer server;
    private Path home;
    private Map<String, String> env;

    private record Answer(int status, String body) {
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            seen.add(new Seen(exchange.getRequestMethod(), path, exchange.getRequestHeaders().getFirst("User-Agent")));
            String level = exchange.getRequestHeaders().getFirst("Svc-Api-Level");
            levels.add(level == null ? "-" : level);
            headers.forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
            bodies.put(path, new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            Answer a = answers.getOrDefault(path, new Answer(404, "{\"error\":\"not_found\",\"message\":\"no " + path
                    + "\"}"));
            byte[] body = a.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(a.status(), body.length == 0 ? -1 : body.length); // 0 would mean chunked
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        home = Files.createTempDirectory("svc-cli-test");
        env = env(home);
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        server.stop(0);
        try (Stream<Path> files = Files.walk(home)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }

    /** Where this test's svc keeps its files (the config directory and {@code HOME}). */
    Path home() {
        return home;
    }

    /** The environment svc runs in; a test may change it before it runs svc. */
    Map<String, String> env() {
        return env;
    }

    /** Runs svc against this server. */
    public Result svc(String... args) {
        return svc(env, args);
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** A header every answer carries from now on (a backplane's {@code Svc-Api-Level}). */
    public LoopbackBackplane header(String name, String value) {
        headers.put(name, value);
        return this;
    }

    public LoopbackBackplane answer(String path, String json) {
        return answer(path, 200, json);
    }

    public LoopbackBackplane answer(String path, int status, String json) {
        answers.put(path, new Answer(status, json));
        return this;
    }

    /** An environment in which svc talks to this server with a static token and keeps its files in {@code home}. */
    private Map<String, String> env(Path home) {
        Map<String, String> env = new HashMap<>();
        env.put("XDG_CONFIG_HOME", home.toString());
        env.put("HOME", home.resolve("home").toString());
        env.put("SVC_TOKEN_STORE", "file");
        env.put("SVC_BACKPLANE", url());
        env.put("SVC_TOKEN", "test-token");
        env.put("SVC_INSECURE_ALLOW_HTTP", "1");
        return env;
    }

    private static Result svc(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Svc.run(args, new PrintWriter(out, true), new PrintWriter(err, true),
                new java.io.ByteArrayInputStream(new byte[0]), env);
        return new Result(code, out.toString(), err.toString());
    }
}
