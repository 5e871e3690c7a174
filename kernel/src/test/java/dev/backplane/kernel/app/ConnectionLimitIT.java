package dev.backplane.kernel.app;

import static dev.backplane.kernel.testing.ScriptedModel.slow;
import static dev.backplane.kernel.testing.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.testing.ChildKernels;
import dev.backplane.kernel.testing.ExternalPostgres;
import dev.backplane.kernel.testing.ScriptedModel;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A kernel in a child JVM whose open-file limit is 1,024 (a common default), and more clients than it may hold.
 * Unbounded, its listener would accept until the process runs out of file descriptors; the accept then fails and
 * Helidon closes the listener for good, while the process (and its management port) stays up. With the budget the
 * kernel holds at most {@code server.max-connections} connections, the rest wait in the backlog and are served as
 * the first ones close; liveness stays UP throughout, and the listener serves afterwards. The budget also leaves
 * room for each request's own outbound connection.
 */
class ConnectionLimitIT {

    private static final Pattern BUDGET = Pattern.compile("holds at most (\\d+) connections at once");
    private static final byte[] LIVE = ("GET /api/v1/info HTTP/1.1\r\nHost: kernel\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** A child kernel that may open 1,024 files, with a management port, and the budget its log states. */
    private record LimitedKernel(Process process, Path log, int port, String probes, int budget) implements AutoCloseable {

        static LimitedKernel start(ExternalPostgres pg, TestIssuer issuer, Path work, Map<String, String> extra)
                throws Exception {
            int port = ChildKernels.freePort();
            int management = ChildKernels.freePort();
            Map<String, String> env = ChildKernels.settings(pg, issuer, work, port);
            env.put("SVC_SERVER_MANAGEMENT_PORT", String.valueOf(management));
            env.putAll(extra);
            Path log = work.resolve("kernel.log");
            Process process = ChildKernels.startWithOpenFileLimit(env, log, 1024);
            String probes = "http://127.0.0.1:" + management;
            try {
                ChildKernels.awaitReady(HTTP, probes, "kernel ready (log: " + log + ")");
                Matcher m = BUDGET.matcher(Files.readString(log));
                assertThat(m.find()).as("the kernel logs its budget (log: %s)", log).isTrue();
                int budget = Integer.parseInt(m.group(1));
                assertThat(budget).as("half of what 1,024 files leave").isBetween(100, 1024 / 2);
                return new LimitedKernel(process, log, port, probes, budget);
            } catch (Exception | AssertionError e) {
                process.destroyForcibly();
                throw e;
            }
        }

        String api() {
            return "http://127.0.0.1:" + port;
        }

        Socket connect() throws IOException {
            Socket s = new Socket();
            s.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
            return s;
        }

        /** After the load: liveness UP, the listener serving, and no descriptor ever lacking at an accept. */
        void listenerSurvived() throws Exception {
            HttpResponse<String> live = HTTP.send(HttpRequest.newBuilder(URI.create(probes + "/health/live")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(live.statusCode()).as(live.body()).isEqualTo(200);
            assertThat(live.body()).contains("\"listener\":\"UP\"");
            HttpResponse<String> after = HTTP.send(HttpRequest.newBuilder(URI.create(api() + "/api/v1/info"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(after.statusCode()).as("the listener serves afterwards").isEqualTo(200);
            assertThat(Files.readString(log)).doesNotContain("Too many open files")
                    .doesNotContain("server socket is terminating");
        }

        @Override
        public void close() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor();
        }
    }

    @Test
    void moreClientsThanTheProcessCanHoldWaitAndTheListenerSurvives() throws Exception {
        Path work = TempDirs.create("svc-connections");
        List<Socket> clients = new ArrayList<>();
        try (ExternalPostgres pg = ExternalPostgres.start(); TestIssuer issuer = new TestIssuer();
             LimitedKernel kernel = LimitedKernel.start(pg, issuer, work, Map.of())) {
            int budget = kernel.budget();
            // more connections than the budget, and more than the process's limit without one; each asks once
            int extra = 1024 - budget + 100;
            for (int i = 0; i < budget + extra; i++) {
                Socket s = kernel.connect();
                s.setSoTimeout(2_000);
                s.getOutputStream().write(LIVE);
                clients.add(s);
            }
            Set<Socket> served = new LinkedHashSet<>();
            List<Socket> waiting = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (served.size() < budget && System.nanoTime() < deadline) {
                for (Socket s : clients) {
                    if (!served.contains(s) && answered(s)) {
                        served.add(s);
                    }
                }
                Thread.sleep(100);
            }
            Thread.sleep(1_000); // time for a connection over the budget to be served, were it let in
            for (Socket s : clients) {
                if (!served.contains(s)) {
                    waiting.add(s);
                }
            }
            assertThat(served).as("the budget's connections are served").hasSize(budget);
            assertThat(waiting.stream().filter(ConnectionLimitIT::answered).count())
                    .as("the others wait in the backlog while the budget is taken").isZero();
            HttpResponse<String> live = HTTP.send(HttpRequest.newBuilder(URI.create(kernel.probes() + "/health/live"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(live.body()).as("liveness while the budget is taken").contains("\"listener\":\"UP\"");

            // the first ones leave; the waiting ones are served in their turn
            for (Socket s : served) {
                s.close();
            }
            deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            List<Socket> late = new ArrayList<>(waiting);
            while (!late.isEmpty() && System.nanoTime() < deadline) {
                late.removeIf(s -> answered(s) && closed(s)); // each leaves once served, as the first ones did
                Thread.sleep(100);
            }
            assertThat(late.size()).as("every waiting connection is served once slots free up, of %s (log: %s)",
                    waiting.size(), tail(kernel.log())).isZero();
            closeAll(clients);
            kernel.listenerSurvived();
            System.out.printf("ConnectionLimitIT: a limit of 1,024 files, a budget of %d connections; %d clients, "
                    + "%d of them waited and were served in their turn%n", budget, budget + extra, waiting.size());
        } finally {
            closeAll(clients);
            TempDirs.delete(work);
        }
    }

    /**
     * As many synchronous agent runs as the budget holds, and 100 more, each waiting 5 s for its model's answer: one
     * descriptor in and one out for every request. With the first default (three quarters of what the limit left,
     * nothing kept for later) the process ran out of descriptors here: classes failed to load, the requests failed
     * with 500 and the listener stopped.
     */
    @Test
    void aFullListenerWhoseRequestsAllCallOutKeepsItsListener() throws Exception {
        Path work = TempDirs.create("svc-outbound");
        List<Socket> clients = new ArrayList<>();
        UUID tenant = UUID.randomUUID();
        try (ExternalPostgres pg = ExternalPostgres.start(); TestIssuer issuer = new TestIssuer();
             ScriptedModel model = ScriptedModel.concurrent().otherwise(slow(5_000, text("done")));
             LimitedKernel kernel = LimitedKernel.start(pg, issuer, work,
                     Map.of("SVC_AGENTS_MODEL_BASE_URL", model.baseUrl()))) {
            String admin = issuer.token("admin", tenant, "tenant_admin");
            assertThat(post(kernel.api() + "/api/v1/agent-principals", admin, "{\"name\": \"fd-bot\"}").statusCode())
                    .isEqualTo(201);
            assertThat(post(kernel.api() + "/api/v1/agents", admin, "{\"name\": \"fd\", \"identity_ref\": \"fd-bot\"}")
                    .statusCode()).isEqualTo(201);

            byte[] run = runRequest(admin);
            int total = kernel.budget() + 100;
            for (int i = 0; i < total; i++) {
                Socket s = kernel.connect();
                s.getOutputStream().write(run);
                clients.add(s);
            }
            Map<String, Integer> statuses = new TreeMap<>();
            List<Socket> open = new ArrayList<>(clients);
            int peak = 0; // model calls in flight at once: asked, and their run not answered yet
            long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            while (!open.isEmpty() && System.nanoTime() < deadline) {
                peak = Math.max(peak, model.requests().size() - (clients.size() - open.size()));
                for (var it = open.iterator(); it.hasNext(); ) {
                    Socket s = it.next();
                    Optional<String> status = status(s);
                    if (status.isPresent()) {
                        statuses.merge(status.get(), 1, Integer::sum);
                        s.close();
                        it.remove();
                    }
                }
                Thread.sleep(200);
            }
            System.out.printf("ConnectionLimitIT: a limit of 1,024 files, a budget of %d connections; %d agent runs, "
                    + "at most %d model calls in flight at once; answers %s, %d unanswered%n", kernel.budget(), total,
                    peak, statuses, open.size());
            assertThat(open).as("every client answered (log: %s)", kernel.log()).isEmpty();
            assertThat(statuses).as("every run answered 200").containsOnlyKeys("HTTP/1.1 200");
            assertThat(peak).as("most of the budget's requests held an outbound call at once")
                    .isGreaterThan(kernel.budget() / 2);
            kernel.listenerSurvived();
        } finally {
            closeAll(clients);
            TempDirs.delete(work);
        }
    }

    private static byte[] runRequest(String token) {
        String body = "{\"input\": \"anything new?\"}";
        return ("POST /api/v1/agents/fd/runs HTTP/1.1\r\nHost: kernel\r\nAuthorization: Bearer " + token
                + "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8);
    }

    private static HttpResponse<String> post(String url, String token, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void closeAll(List<Socket> sockets) throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
        sockets.clear();
    }

    private static boolean closed(Socket s) {
        try {
            s.close();
            return true;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String tail(Path log) throws IOException {
        String text = Files.readString(log);
        return text.substring(Math.max(0, text.length() - 3_000));
    }

    /** Whether a response's status line has arrived on {@code s}: a 200's, read whole; false while nothing has. */
    private static boolean answered(Socket s) {
        Optional<String> status = status(s);
        status.ifPresent(line -> assertThat(line).startsWith("HTTP/1.1 200"));
        return status.isPresent();
    }

    /** The first 12 bytes of the answer on {@code s} ("HTTP/1.1 200"), read once they are there; empty until then. */
    private static Optional<String> status(Socket s) {
        try {
            InputStream in = s.getInputStream();
            return in.available() == 0 ? Optional.empty()
                    : Optional.of(new String(in.readNBytes(12), StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
