package dev.backplane.plugins.prometheus;

import dev.backplane.kernel.egress.TargetTls;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;
import org.junit.jupiter.api.Assumptions;

/**
 * A real Prometheus and a real Alertmanager (Debian's {@code prometheus} and
 * {@code prometheus-alertmanager}, installed by {@code bin/test-deps.sh}) on loopback high ports,
 * both behind HTTP Basic from their own {@code --web.config.file} (bcrypt hashes) and optionally TLS
 * with a certificate naming only {@code localhost}. Prometheus scrapes itself and a dead target,
 * evaluates an always-firing alerting rule and a recording rule every second, and sends its alerts
 * to the Alertmanager.
 */
final class PromServers implements AutoCloseable {

    static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");
    static final Path ALERTMANAGER = Path.of("/usr/bin/prometheus-alertmanager");
    static final String USER = "svc-reader";
    static final String PASSWORD = "prom-pass-" + Long.toHexString(new SecureRandom().nextLong());

    private final Path work;
    private final boolean tls;
    private final List<Process> processes = new ArrayList<>();
    private final int promPort;
    private final int amPort;
    private String certPem;

    private final boolean moreJobs;

    private PromServers(Path work, boolean tls, boolean moreJobs) throws IOException {
        this.work = work;
        this.tls = tls;
        this.moreJobs = moreJobs;
        this.promPort = freePort();
        this.amPort = freePort();
    }

    static final String NOT_INSTALLED = "Prometheus or Alertmanager is not installed (./test installs the Debian "
            + "packages prometheus and prometheus-alertmanager as root); not run";

    static boolean installed() {
        return Files.isExecutable(PROMETHEUS) && Files.isExecutable(ALERTMANAGER);
    }

    /** Starts both servers, or skips the calling test when the Debian packages are not installed. */
    static PromServers start(Path work, boolean tls) throws Exception {
        return start(work, tls, false);
    }

    /**
     * As {@link #start(Path, boolean)}; with {@code moreJobs} Prometheus also scrapes the Alertmanager (job
     * {@code alertmanager}), a node exporter that is not there (job {@code node}, 127.0.0.1:2), and a Loki and a
     * Prometheus at documentation addresses nobody answers (jobs {@code loki}, 192.0.2.10:3100, and
     * {@code prometheus-k8s}, 192.0.2.11:9090): the scrape targets discovery lists.
     */
    static PromServers start(Path work, boolean tls, boolean moreJobs) throws Exception {
        Assumptions.assumeTrue(installed(), NOT_INSTALLED);
        PromServers s = new PromServers(Files.createDirectories(work), tls, moreJobs);
        try {
            s.launch();
        } catch (Exception | AssertionError e) {
            s.close();
            throw e;
        }
        return s;
    }

    private void launch() throws Exception {
        String hash = OpenBSDBCrypt.generate("2a", PASSWORD.toCharArray(), new SecureRandom().generateSeed(16), 4);
        StringBuilder web = new StringBuilder("basic_auth_users:\n  " + USER + ": " + hash + "\n");
        if (tls) {
            run(List.of("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost", "-keyout", work.resolve("key.pem").toString(), "-out",
                    work.resolve("cert.pem").toString()));
            certPem = Files.readString(work.resolve("cert.pem"));
            web.append("tls_server_config:\n  cert_file: ").append(work.resolve("cert.pem")).append("\n  key_file: ")
                    .append(work.resolve("key.pem")).append("\n");
        }
        Files.writeString(work.resolve("web.yml"), web);
        String scheme = tls ? "https" : "http";
        String auth = "{username: " + USER + ", password: " + PASSWORD + "}";
        Files.writeString(work.resolve("rules.yml"), """
                groups:
                  - name: svc-test
                    interval: 1s
                    rules:
                      - alert: AlwaysFiring
                        expr: vector(1)
                        labels: {severity: warning}
                        annotations: {summary: "always firing (a test rule)"}
                      - record: job:up:sum
                        expr: sum by (job) (up)
                """);
        Files.writeString(work.resolve("prometheus.yml"), """
                global: {scrape_interval: 1s, evaluation_interval: 1s}
                rule_files: [%s]
                alerting:
                  alertmanagers:
                    - scheme: %s
                      basic_auth: %s
                      tls_config: {insecure_skip_verify: true}
                      static_configs: [{targets: ['localhost:%d']}]
                scrape_configs:
                  - job_name: prometheus
                    scheme: %s
                    basic_auth: %s
                    tls_config: {insecure_skip_verify: true}
                    static_configs: [{targets: ['localhost:%d']}]
                  - job_name: dead
                    static_configs: [{targets: ['127.0.0.1:1']}]
                """.formatted(work.resolve("rules.yml"), scheme, auth, amPort, scheme, auth, promPort)
                + (!moreJobs ? "" : """
                  - job_name: alertmanager
                    scheme: %s
                    basic_auth: %s
                    tls_config: {insecure_skip_verify: true}
                    static_configs: [{targets: ['localhost:%d']}]
                  - job_name: node
                    static_configs: [{targets: ['127.0.0.1:2']}]
                  - job_name: loki
                    static_configs: [{targets: ['192.0.2.10:3100']}]
                  - job_name: prometheus-k8s
                    static_configs: [{targets: ['192.0.2.11:9090']}]
                """.formatted(scheme, auth, amPort)));
        Files.writeString(work.resolve("alertmanager.yml"), """
                route: {receiver: devnull, group_wait: 1s, group_interval: 1s, repeat_interval: 1h}
                receivers: [{name: devnull}]
                """);
        processes.add(new ProcessBuilder(ALERTMANAGER.toString(), "--config.file=" + work.resolve("alertmanager.yml"),
                "--storage.path=" + work.resolve("am-data"), "--web.listen-address=127.0.0.1:" + amPort,
                "--web.config.file=" + work.resolve("web.yml"), "--cluster.listen-address=").redirectErrorStream(true)
                .redirectOutput(work.resolve("alertmanager.log").toFile()).start());
        processes.add(new ProcessBuilder(PROMETHEUS.toString(), "--config.file=" + work.resolve("prometheus.yml"),
                "--storage.tsdb.path=" + work.resolve("prom-data"), "--web.listen-address=127.0.0.1:" + promPort,
                "--web.config.file=" + work.resolve("web.yml")).redirectErrorStream(true)
                .redirectOutput(work.resolve("prometheus.log").toFile()).start());
        await("Alertmanager ready", () -> alive("alertmanager") && status(amPort, "/-/ready") == 200);
        await("Prometheus ready", () -> alive("prometheus") && status(promPort, "/-/ready") == 200);
    }

    /** True while every process runs; a dead one fails the start at once with its log. */
    private boolean alive(String name) {
        for (Process p : processes) {
            if (!p.isAlive()) {
                String log;
                try {
                    log = Files.readString(work.resolve(name + ".log"));
                } catch (IOException e) {
                    log = e.toString();
                }
                throw new AssertionError("a test server exited (" + p.info().command().orElse("?") + "):\n"
                        + log.substring(Math.max(0, log.length() - 2000)));
            }
        }
        return true;
    }

    int prometheusPort() {
        return promPort;
    }

    int alertmanagerPort() {
        return amPort;
    }

    /** The servers' self-signed certificate (TLS mode only). */
    String certificatePem() {
        return certPem;
    }

    /** GET with the good credential, no TLS verification (the fixture's own checks). */
    String get(int port, String path) throws Exception {
        HttpResponse<String> r = client().send(request(port, path).GET().build(), HttpResponse.BodyHandlers.ofString());
        return r.body();
    }

    int status(int port, String path) {
        try {
            return client().send(request(port, path).GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private HttpRequest.Builder request(int port, String path) {
        return HttpRequest.newBuilder(URI.create((tls ? "https" : "http") + "://localhost:" + port + path))
                .timeout(Duration.ofSeconds(5)).header("Authorization", "Basic " + Base64.getEncoder()
                        .encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8)));
    }

    /** A client that checks no certificate: the kernel's own TLS for a target with verify_tls false. */
    private static HttpClient client() {
        TargetTls unverified = TargetTls.of("localhost", false, Optional.empty(), Optional.empty());
        return HttpClient.newBuilder().sslContext(unverified.context()).sslParameters(unverified.parameters())
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** Polls until the condition holds, failing after 60 s (servers on a busy 2-core machine start slowly). */
    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(60);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(200);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static void run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(cmd.getFirst() + " failed: " + out);
        }
    }

    @Override
    public void close() {
        for (Process p : processes) {
            p.destroy();
        }
        for (Process p : processes) {
            try {
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
