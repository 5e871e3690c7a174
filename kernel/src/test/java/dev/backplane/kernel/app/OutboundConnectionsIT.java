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
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A kernel in a child JVM whose open-file limit is 1,024, with every connection its API listener may hold making an
 * outbound call that waits (a synchronous agent run whose model answers after seconds): one descriptor in, one out
 * for each. The default connection budget leaves room for both, so the calls' connections cannot take the
 * descriptors the listener's accept needs; the listener stays up and serves the clients that waited.
 */
class OutboundConnectionsIT {

    private static final Pattern BUDGET = Pattern.compile("holds at most (\\d+) connections at once");

    @Test
    void aFullListenerWhoseRequestsAllCallOutKeepsItsListener() throws Exception {
        Path work = TempDirs.create("svc-outbound");
        UUID tenant = UUID.randomUUID();
        try (ExternalPostgres pg = ExternalPostgres.start(); TestIssuer issuer = new TestIssuer();
             ScriptedModel model = ScriptedModel.concurrent().otherwise(slow(5_000, text("done")))) {
            int port = ChildKernels.freePort();
            int management = ChildKernels.freePort();
            Map<String, String> env = ChildKernels.settings(pg, issuer, work, port);
            env.put("SVC_SERVER_MANAGEMENT_PORT", String.valueOf(management));
            env.put("SVC_AGENTS_MODEL_BASE_URL", model.baseUrl());
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
                String admin = issuer.token("admin", tenant, "tenant_admin");
                assertThat(post(http, api + "/api/v1/agent-principals", admin, "{\"name\": \"fd-bot\"}").statusCode())
                        .isEqualTo(201);
                assertThat(post(http, api + "/api/v1/agents", admin, "{\"name\": \"fd\", \"identity_ref\": \"fd-bot\"}")
                        .statusCode()).isEqualTo(201);

                byte[] run = request(admin);
                int total = budget + 100;
                for (int i = 0; i < total; i++) {
                    Socket s = new Socket();
                    s.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
                    s.getOutputStream().write(run);
                    clients.add(s);
                }
                Map<String, Integer> statuses = new TreeMap<>();
                long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
                List<Socket> open = new ArrayList<>(clients);
                int peak = 0; // model calls in flight at once: asked, and their run not answered yet
                while (!open.isEmpty() && System.nanoTime() < deadline) {
                    peak = Math.max(peak, model.requests().size() - (clients.size() - open.size()));
                    for (var it = open.iterator(); it.hasNext(); ) {
                        Socket s = it.next();
                        String status = status(s);
                        if (status != null) {
                            statuses.merge(status, 1, Integer::sum);
                            s.close();
                            it.remove();
                        }
                    }
                    Thread.sleep(200);
                }
                String text = Files.readString(log);
                System.out.printf("OutboundConnectionsIT: a limit of 1,024 files, a budget of %d connections; %d clients, "
                        + "at most %d model calls in flight at once; answers %s, %d unanswered%n", budget, total, peak,
                        statuses, open.size());
                assertThat(text).as("the listener's accept never ran out of descriptors")
                        .doesNotContain("server socket is terminating");
                HttpResponse<String> live = http.send(HttpRequest.newBuilder(URI.create(probes + "/health/live")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(live.body()).contains("\"listener\":\"UP\"");
                assertThat(open).as("every client answered").isEmpty();
                assertThat(statuses).as("every run answered 200").containsOnlyKeys("HTTP/1.1 200");
                assertThat(peak).as("most of the budget's requests held an outbound call at once").isGreaterThan(budget / 2);
                assertThat(http.send(HttpRequest.newBuilder(URI.create(api + "/api/v1/info")).build(),
                        HttpResponse.BodyHandlers.ofString()).statusCode()).as("the listener serves afterwards").isEqualTo(200);
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

    private static byte[] request(String token) {
        String body = "{\"input\": \"anything new?\"}";
        return ("POST /api/v1/agents/fd/runs HTTP/1.1\r\nHost: kernel\r\nAuthorization: Bearer " + token
                + "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8);
    }

    private static HttpResponse<String> post(HttpClient http, String url, String token, String body)
            throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The status line on {@code s} once one has arrived, else null. */
    private static String status(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        if (in.available() == 0) {
            return null;
        }
        return new String(in.readNBytes(12), StandardCharsets.US_ASCII);
    }
}
