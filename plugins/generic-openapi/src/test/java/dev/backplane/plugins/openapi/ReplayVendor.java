package dev.backplane.plugins.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.testing.TlsFixture;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A vendor on loopback for replay tests: plain HTTP, or HTTPS with a self-signed certificate for
 * {@code 127.0.0.1} and {@code vendor.test} made by the JDK's keytool (its PEM is the pin a target
 * trusts). Each request goes to a {@link Handler}; an {@link AssertionError} thrown there (a fixture
 * or a received body that fails the {@link SpecContract}) becomes a 599 {@code contract_violation}
 * answer, which {@link ReplayKernel#call} refuses, so a drift fails the test that caused it. Not every
 * path looks at the answer (approvals, probes, CLI verbs, a session login whose failure maps to
 * {@code connector_auth_failed}, a test that expects an error), so every violation, and every handler
 * failure, is also kept: {@link #close} fails when there was any.
 */
final class ReplayVendor implements AutoCloseable {

    /** Answers one request. */
    interface Handler {
        void answer(Exchange x) throws Exception;
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final String pem;
    private final AtomicInteger served = new AtomicInteger();
    private final List<String> writes = new CopyOnWriteArrayList<>();
    private final List<String> violations = new CopyOnWriteArrayList<>();

    private ReplayVendor(HttpServer server, String pem, Handler handler) {
        this.server = server;
        this.pem = pem;
        server.createContext("/", x -> {
            served.incrementAndGet();
            Exchange e = new Exchange(x, x.getRequestBody().readAllBytes(), writes);
            try {
                handler.answer(e);
            } catch (AssertionError violation) {
                violations.add(e.route() + ": contract violation: " + violation.getMessage());
                e.reply(599, "{\"contract_violation\": " + JSON.writeValueAsString(violation.getMessage()) + "}");
            } catch (Exception failure) {
                violations.add(e.route() + ": replay failure: " + failure);
                e.reply(500, "{\"replay_failure\": " + JSON.writeValueAsString(String.valueOf(failure)) + "}");
            }
        });
        server.start();
    }

    /** A plain-HTTP vendor on a free loopback port. */
    static ReplayVendor http(Handler handler) throws IOException {
        return new ReplayVendor(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0), null,
                handler);
    }

    /** An HTTPS vendor with a fresh self-signed certificate (key store written to {@code dir}). */
    static ReplayVendor https(Path dir, Handler handler) throws Exception {
        TlsFixture.SelfSigned tls = TlsFixture.SelfSigned.create(Files.createTempDirectory(dir, "tls")
                .resolve("server.p12"), "vendor.test", "dns:vendor.test,ip:127.0.0.1");
        return new ReplayVendor(tls.server(), tls.pem(), handler);
    }

    int port() {
        return server.getAddress().getPort();
    }

    boolean tls() {
        return pem != null;
    }

    /** The HTTPS certificate as PEM (it is its own CA): a target's {@code tls_ca_pin}. */
    String pem() {
        if (pem == null) {
            throw new IllegalStateException("a plain-HTTP vendor has no certificate");
        }
        return pem;
    }

    /** How many requests reached the handler (a refused TLS handshake never does). */
    int served() {
        return served.get();
    }

    /** What handlers recorded with {@link Exchange#recordWrite}, in arrival order. */
    List<String> writes() {
        return writes;
    }

    /** Every contract violation and handler failure so far, as "METHOD path: what", in arrival order. */
    List<String> violations() {
        return violations;
    }

    /** Stops the server, then fails if any request violated the vendor's contract or broke its handler. */
    @Override
    public void close() {
        server.stop(0);
        if (!violations.isEmpty()) {
            throw new AssertionError(violations.size() + " request(s) the replayed vendor refused as off its contract "
                    + "(each was answered 599 or 500):\n  " + String.join("\n  ", violations));
        }
    }

    /** One request, read once, with the answer helpers a replay handler needs. */
    static final class Exchange {
        private final HttpExchange x;
        private final byte[] body;
        private final List<String> writes;

        private Exchange(HttpExchange x, byte[] body, List<String> writes) {
            this.x = x;
            this.body = body;
            this.writes = writes;
        }

        String method() {
            return x.getRequestMethod();
        }

        String path() {
            return x.getRequestURI().getPath();
        }

        /** The raw query string, or "" when there is none. */
        String query() {
            return x.getRequestURI().getRawQuery() == null ? "" : x.getRequestURI().getRawQuery();
        }

        /** {@code "GET /api/v1/things"}: what handlers switch on. */
        String route() {
            return method() + " " + path();
        }

        String header(String name) {
            return String.valueOf(x.getRequestHeaders().getFirst(name));
        }

        byte[] body() {
            return body;
        }

        String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }

        JsonNode json() throws IOException {
            return JSON.readTree(body);
        }

        /** True when the request carries HTTP Basic for {@code user:password}. */
        boolean basic(String user, String password) {
            return header("Authorization").equals("Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
                    .getBytes(StandardCharsets.UTF_8)));
        }

        /** Records a write the vendor received (label plus body), for "nothing sent while parked" checks. */
        void recordWrite(String label) {
            writes.add(label + " " + bodyText());
        }

        void reply(int status, String json) throws IOException {
            reply(status, json, Map.of());
        }

        void reply(int status, String json, Map<String, String> headers) throws IOException {
            byte[] b = json.getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().add("Content-Type", "application/json");
            headers.forEach((k, v) -> x.getResponseHeaders().add(k, v));
            x.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
            if (b.length > 0) {
                x.getResponseBody().write(b);
            }
            x.close();
        }
    }
}
