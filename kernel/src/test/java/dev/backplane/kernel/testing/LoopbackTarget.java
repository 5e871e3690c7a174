package dev.backplane.kernel.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A loopback HTTP target for the fixture connectors that really connect ({@link TestPlugins.Spec#httpProbe}),
 * with the one credential it is registered with. The pipeline's integration tests all serve such a target,
 * register it over plain HTTP and stage its credential; this is that set-up, written once.
 *
 * @param server the server the target is on
 * @param user the user name registered with it
 * @param password the password staged for it (so a test can check no answer shows it)
 */
public record LoopbackTarget(HttpServer server, String user, String password) {

    /** The credential registered for a target that checks none. */
    private static final String USER = "u";
    private static final String PASSWORD = "p-0123456789";

    /** A target on a server the test started (and stops) itself, registered with {@code user:password}. */
    public static LoopbackTarget on(HttpServer server, String user, String password) {
        return new LoopbackTarget(server, user, password);
    }

    /** As {@link #on(HttpServer, String, String)} for a server that checks no credential. */
    public static LoopbackTarget on(HttpServer server) {
        return on(server, USER, PASSWORD);
    }

    /** As {@link #start(KernelSetup, String, String, HttpHandler)} for a handler that checks no credential. */
    public static LoopbackTarget start(KernelSetup setup, HttpHandler handler) {
        return start(setup, USER, PASSWORD, handler);
    }

    /** Serves {@code handler} on loopback until {@code setup}'s kernel is closed; registered with {@code user:password}. */
    public static LoopbackTarget start(KernelSetup setup, String user, String password, HttpHandler handler) {
        HttpServer server = LoopbackHttp.start(handler);
        setup.closeAfter(() -> server.stop(0));
        return new LoopbackTarget(server, user, password);
    }

    /**
     * A target behind HTTP Basic for {@code user:password}: without it 401, with it {@code GET /items?count=n}
     * answers {@link LoopbackHttp#items} and any other path {@code details}. {@code seen} sees every request first.
     */
    public static LoopbackTarget basicAuthItems(KernelSetup setup, String user, String password,
                                                Consumer<HttpExchange> seen) {
        String auth = LoopbackHttp.basic(user, password);
        return start(setup, user, password, x -> {
            seen.accept(x);
            if (auth.equals(x.getRequestHeaders().getFirst("Authorization"))) {
                LoopbackHttp.itemsOr(x, "details");
            } else {
                LoopbackHttp.answer(x, 401, "no");
            }
        });
    }

    /**
     * A target of health bodies for sensors: {@code GET /items/<name>} answers {@code bodies.get(name)} ("fine"
     * when absent), any other path (the probe's {@code /version}) {@code 1.0}. It checks no credential.
     */
    public static LoopbackTarget itemBodies(KernelSetup setup, Map<String, String> bodies) {
        return start(setup, x -> {
            String path = x.getRequestURI().getPath();
            LoopbackHttp.answer(x, 200, path.startsWith("/items/") ? bodies.getOrDefault(path.substring(7), "fine") : "1.0");
        });
    }

    /** Records every request into {@code hits} as {@code "METHOD URI"}. */
    public static Consumer<HttpExchange> recordInto(List<String> hits) {
        return x -> hits.add(x.getRequestMethod() + " " + x.getRequestURI());
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** Registers target {@code name} of {@code product} on this server over plain HTTP and stages its credential. */
    public void register(TestKernel kernel, String token, String name, String product) {
        register(kernel, token, name, product, Map.of());
    }

    /** As {@link #register(TestKernel, String, String, String)}, with more target extras besides {@code scheme=http}. */
    public void register(TestKernel kernel, String token, String name, String product, Map<String, Object> extras) {
        Map<String, Object> all = new java.util.HashMap<>(extras);
        all.put("scheme", "http");
        kernel.registerTarget(token, Map.of("name", name, "product", product, "host", "127.0.0.1", "port", port(),
                "extras", all));
        stageSecret(kernel, token, name);
    }

    /** Stages this target's credential for the already registered target {@code name}. */
    public void stageSecret(TestKernel kernel, String token, String name) {
        kernel.stageSecret(token, name, Map.of("username", user, "password", password));
    }
}
