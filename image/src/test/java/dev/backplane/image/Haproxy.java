package dev.backplane.image;

import static dev.backplane.image.Http.awaitTrue;
import static dev.backplane.image.Http.status;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * haproxy round-robin in front of kernel containers, checking each one's readiness on its management port, as the
 * operator guide configures it. It runs in master-worker mode so that {@link #servers} rewrites the configuration
 * and reloads it (SIGUSR2) without closing the listening socket: a rolling change of replicas keeps serving.
 */
final class Haproxy implements AutoCloseable {

    private final Path config;
    private final Path log;
    private final int port;
    private final Process process;

    private Haproxy(Path config, Path log, int port, Process process) {
        this.config = config;
        this.log = log;
        this.port = port;
        this.process = process;
    }

    /** Starts haproxy on {@code port} in front of {@code servers}, and waits until it serves. */
    static Haproxy start(Path dir, int port, List<Deployment.Replica> servers) throws Exception {
        Path config = dir.resolve("haproxy.cfg");
        Files.writeString(config, config(port, servers));
        Path log = dir.resolve("haproxy.log");
        Process p = new ProcessBuilder("haproxy", "-W", "-db", "-f", config.toString()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        Haproxy haproxy = new Haproxy(config, log, port, p);
        haproxy.awaitServing();
        return haproxy;
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    /**
     * Replaces the servers behind the load balancer (a graceful reload), and waits until it serves again and the
     * former worker has exited: from then on nothing is sent to a server that was taken out, so a test may stop it.
     * (The former worker finishes the requests it had sent; without waiting, a server stopped right after the reload
     * could still be holding one of them.)
     */
    void servers(List<Deployment.Replica> servers) throws Exception {
        long formerWorkersBefore = formerWorkersExited();
        Files.writeString(config, config(port, servers));
        Process kill = new ProcessBuilder("kill", "-USR2", String.valueOf(process.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("could not signal haproxy " + process.pid());
        }
        awaitServing();
        awaitTrue("haproxy's former worker exited after the reload (" + log + ")",
                () -> formerWorkersExited() > formerWorkersBefore, 40);
    }

    /** How many times the master logged that a former worker exited (one per reload, once its connections closed). */
    private long formerWorkersExited() throws IOException {
        try (var lines = Files.lines(log)) {
            return lines.filter(l -> l.contains("Former worker") && l.contains("exited")).count();
        }
    }

    private void awaitServing() throws Exception {
        // servers pass their readiness checks (rise 2 at 500 ms), then the load balancer serves
        Thread.sleep(1500);
        awaitTrue("haproxy serves (" + log + ")", () -> status("GET", url() + "/api/v1/info", null, null) == 200
                && status("GET", url() + "/api/v1/info", null, null) == 200, 30);
    }

    private static String config(int port, List<Deployment.Replica> servers) {
        StringBuilder cfg = new StringBuilder("""
                global
                    log stdout format raw local0 info
                    # a reload's former worker leaves within 30 s whatever its clients do
                    hard-stop-after 30s
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 60s
                    timeout server 60s
                    retries 3
                    option redispatch
                    retry-on conn-failure empty-response response-timeout
                frontend api
                    bind 127.0.0.1:%d
                    # one request per client connection: at a reload haproxy 2.6 closes the idle keep-alive connections
                    # of the former worker, and a client that reuses one at that instant loses its request without an
                    # answer (a POST is not retried by the client); 2.7 and later have idle-close-on-response instead
                    option httpclose
                    # a request a dying server dropped is sent again elsewhere (empty-response), but never a POST:
                    # a governed write would run twice (connection failures are still retried: nothing was sent)
                    http-request disable-l7-retry if METH_POST
                    default_backend kernels
                backend kernels
                    balance roundrobin
                    option httpchk
                    http-check send meth GET uri /health/ready ver HTTP/1.1 hdr Host 127.0.0.1
                    http-check expect status 200
                """.formatted(port));
        for (Deployment.Replica r : servers) {
            cfg.append("    server ").append(r.name()).append(" 127.0.0.1:").append(r.port()).append(" check port ")
                    .append(r.management()).append(" inter 500 fall 1 rise 2\n");
        }
        return cfg.toString();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        process.destroy();
        process.waitFor(10, TimeUnit.SECONDS);
        List<String> lines = Files.readAllLines(log);
        lines.subList(Math.max(0, lines.size() - 15), lines.size()).forEach(l -> System.out.println("haproxy| " + l));
    }
}
