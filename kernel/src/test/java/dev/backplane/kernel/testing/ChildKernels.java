package dev.backplane.kernel.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Kernels in child JVMs (this test's class path), for tests that kill one with SIGKILL and restart it. */
public final class ChildKernels {

    private ChildKernels() {
    }

    /** Starts {@code dev.backplane.kernel.app.Main} with {@code env}, its output to {@code log}. */
    public static Process start(Map<String, String> env, Path log) throws IOException {
        return start(env, log, List.of());
    }

    /**
     * As {@link #start(Map, Path)}, in a process that may open at most {@code openFiles} files (soft and hard limit,
     * set with util-linux's {@code prlimit}).
     */
    public static Process startWithOpenFileLimit(Map<String, String> env, Path log, int openFiles) throws IOException {
        return start(env, log, List.of("prlimit", "--nofile=" + openFiles + ":" + openFiles, "--"));
    }

    private static Process start(Map<String, String> env, Path log, List<String> prefix) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        // its temporary files (the ONNX runtime unpacks 16 MB per start) beside its log, deleted with the test's
        // directory: a child killed with SIGKILL never runs its own clean-up
        Path tmp = Files.createDirectories(log.toAbsolutePath().getParent().resolve("tmp"));
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(java, "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"),
                "dev.backplane.kernel.app.Main"));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(env);
        return pb.start();
    }

    /**
     * The settings of a child kernel on {@code pg} that trusts {@code issuer} and serves on {@code port}, with its
     * data in {@code work/data} and its plugins in {@code work/plugins} (created). Mutable, to add more.
     */
    public static Map<String, String> settings(ExternalPostgres pg, TestIssuer issuer, Path work, int port)
            throws IOException {
        Map<String, String> env = pg.addTo(new HashMap<>(issuer.kernelSettings()));
        env.put("SVC_SERVER_PORT", String.valueOf(port));
        env.put("SVC_DATA_DIR", work.resolve("data").toString());
        env.put("SVC_SERVER_SHUTDOWN_DELAY_SECONDS", "0"); // a test's SIGTERM needs no load balancer to notice
        env.put("SVC_PLUGIN_DIR", Files.createDirectories(work.resolve("plugins")).toString());
        env.put("SVC_CREDENTIALS_FILE_SINGLE_REPLICA", "true"); // one kernel on work/data at a time
        return env;
    }

    /** Waits until {@code base}/health/ready answers 200 (at most 60 s). */
    public static void awaitReady(HttpClient http, String base) throws InterruptedException {
        awaitReady(http, base, "kernel ready within 60 s");
    }

    /** As {@link #awaitReady(HttpClient, String)}, failing with {@code what} (which kernel, where its log is). */
    public static void awaitReady(HttpClient http, String base, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            try {
                if (http.send(HttpRequest.newBuilder(URI.create(base + "/health/ready")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not up yet
            }
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
