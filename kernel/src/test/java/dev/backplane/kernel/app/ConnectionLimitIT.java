package dev.backplane.kernel.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.testing.ChildKernels;
import dev.backplane.kernel.testing.ExternalPostgres;
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
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A kernel in a child JVM whose open-file limit is 1,024 (a common default), and more clients than it may hold.
 * Unbounded, its listener would accept until the process runs out of file descriptors; the accept then fails and
 * Helidon closes the listener for good, while the process (and its management port) stays up. With the budget the
 * kernel holds at most {@code server.max-connections} connections, the rest wait in the backlog and are served as
 * the first ones close; liveness stays UP throughout, and the listener serves afterwards.
 */
class ConnectionLimitIT {

    private static final Pattern BUDGET = Pattern.compile("holds at most (\\d+) connections at once");
    private static final byte[] LIVE = ("GET /api/v1/info HTTP/1.1\r\nHost: kernel\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);

    @Test
    void moreClientsThanTheProcessCanHoldWaitAndTheListenerSurvives() throws Exception {
        Path work = TempDirs.create("svc-connections");
        try (ExternalPostgres pg = ExternalPostgres.start(); TestIssuer issuer = new TestIssuer()) {
            int port = ChildKernels.freePort();
            int management = ChildKernels.freePort();
            Map<String, String> env = ChildKernels.settings(pg, issuer, work, port);
            env.put("SVC_SERVER_MANAGEMENT_PORT", String.valueOf(management));
            Path log = work.resolve("kernel.log");
            Process kernel = ChildKernels.startWithOpenFileLimit(env, log, 1024);
            List<Socket> clients = new ArrayList<>();
            try {
                HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
                String api = "http://127.0.0.1:" + port;
                String probes = "http://127.0.0.1:" + management;
                ChildKernels.awaitReady(http, probes, "kernel ready (log: " + log + ")");
                Matcher m = BUDGET.matcher(Files.readString(log));
                assertThat(m.find()).as("the kernel logs its budget (log: %s)", log).isTrue();
                int budget = Integer.parseInt(m.group(1));
                assertThat(budget).as("half of what 1,024 files leave").isBetween(100, 1024 / 2);

                // more connections than the budget, and more than the process's limit without one; each asks once
                int extra = 1024 - budget + 100;
                for (int i = 0; i < budget + extra; i++) {
                    Socket s = new Socket();
                    s.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
                    s.setSoTimeout(2_000);
                    s.getOutputStream().write(LIVE);
                    clients.add(s);
                }
                java.util.Set<Socket> served = new java.util.LinkedHashSet<>();
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
                HttpResponse<String> live = http.send(HttpRequest.newBuilder(URI.create(probes + "/health/live")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(live.statusCode()).as(live.body()).isEqualTo(200);
                assertThat(live.body()).contains("\"listener\":\"UP\"");

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
                        waiting.size(), tail(log)).isZero();
                for (Socket s : clients) {
                    s.close();
                }
                clients.clear();
                HttpResponse<String> after = http.send(HttpRequest.newBuilder(URI.create(api + "/api/v1/info"))
                        .build(), HttpResponse.BodyHandlers.ofString());
                assertThat(after.statusCode()).as("the listener serves afterwards").isEqualTo(200);
                assertThat(Files.readString(log)).doesNotContain("Too many open files")
                        .doesNotContain("server socket is terminating");
                System.out.printf("ConnectionLimitIT: a limit of 1,024 files, a budget of %d connections; %d clients, "
                        + "%d of them waited and were served in their turn%n", budget, budget + extra, waiting.size());
            } finally {
                for (Socket s : clients) {
                    s.close();
                }
                kernel.destroyForcibly();
                kernel.waitFor();
            }
        } finally {
            TempDirs.delete(work);
        }
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
        try {
            InputStream in = s.getInputStream();
            if (in.available() == 0) {
                return false;
            }
            String status = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
            assertThat(status).startsWith("HTTP/1.1 200");
            return true;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
