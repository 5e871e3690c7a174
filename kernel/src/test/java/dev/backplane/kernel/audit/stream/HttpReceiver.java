package dev.backplane.kernel.audit.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback HTTP receiver of stream batches: it keeps every row it was sent (whatever it answered) and the
 * Authorization header of each request; it can answer 500 for a while, or be stopped and started again on its port.
 */
final class HttpReceiver implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final List<JsonNode> rows = new CopyOnWriteArrayList<>();
    /** Rows of batches answered 2xx. */
    private final List<JsonNode> acknowledged = new CopyOnWriteArrayList<>();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private volatile boolean failing;
    private volatile java.util.concurrent.CountDownLatch held;
    private final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    private HttpServer server;
    private int port;

    HttpReceiver() throws IOException {
        start();
    }

    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.createContext("/", x -> {
            authorizations.add(String.valueOf(x.getRequestHeaders().getFirst("Authorization")));
            JsonNode batch = JSON.readTree(x.getRequestBody());
            List<JsonNode> got = new java.util.ArrayList<>();
            batch.path("rows").forEach(got::add);
            rows.addAll(got);
            java.util.concurrent.CountDownLatch hold = held;
            if (hold != null && hold.getCount() > 0) { // read, then keep the sender waiting for its answer
                hold.countDown();
                try {
                    release.await(60, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            int status = failing ? 500 : 200;
            if (!failing) {
                acknowledged.addAll(got);
            }
            x.sendResponseHeaders(status, -1);
            x.close();
        });
        server.start();
        port = server.getAddress().getPort();
    }

    /** The next batch is read (and kept) but not answered until {@link #release()}; the latch opens when it came. */
    java.util.concurrent.CountDownLatch holdNext() {
        held = new java.util.concurrent.CountDownLatch(1);
        return held;
    }

    void release() {
        release.countDown();
    }

    void stop() {
        server.stop(0);
    }

    void failing(boolean failing) {
        this.failing = failing;
    }

    String url() {
        return "http://127.0.0.1:" + port + "/siem/audit";
    }

    List<JsonNode> rows() {
        return rows;
    }

    List<JsonNode> acknowledged() {
        return acknowledged;
    }

    List<String> authorizations() {
        return authorizations;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
